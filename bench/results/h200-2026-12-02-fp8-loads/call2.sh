#!/bin/bash
# call 2: fp8 loads bit for bit (bench/fp8_exact.sh, sm_80's software decoding against sm_90's
# pair conversions), old PTX against new at rows that start misaligned, memcheck on f8_load
set -u
O=${OUT:-out}
gunzip -c .carry/rkc.gz > /tmp/rkc && chmod +x /tmp/rkc
timeout 200 bash bench/fp8_exact.sh /tmp/rkc > $O/fp8-exact.txt 2>&1; echo "fp8_exact exit $?" >> $O/fp8-exact.txt
LIMIT=180 COPY=4274 OUT=$O timeout 210 bash bench/ab.sh /tmp/rkc bench/results/h200-2026-12-02-fp8-loads/call2-ab-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $O/ab.txt > $O/ab-table.txt 2>&1
for s in 7x4099 1x1 333x77; do for d in bf16 f32; do
  timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/rkc run tests/codegen/f8_load.rk --shape $s --dtype $d --check --inputs bench/fp8_inputs.json > $O/memcheck-$s-$d.txt 2>&1; echo "memcheck f8_load $s $d exit $?" >> $O/memcheck.txt
done; done
grep -c "^same" $O/fp8-exact.txt; grep -v "^same" $O/fp8-exact.txt | head; cut -c1-90 $O/ab-table.txt; cat $O/memcheck.txt
