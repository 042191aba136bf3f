#!/bin/bash
# call 4: the final build: dequant old PTX against the new pick; the held-out table again; memcheck
mkdir -p $OUT
LIMIT=150 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts4.txt > $OUT/ab_stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab_report.txt 2>&1
timeout 120 bash -c 'for p in "bench/heldout/dequant.rk 7x1000 bf16" "bench/heldout/dequant.rk 5x4099 f32" "testdata/kernels/fused_add_rmsnorm.rk 7x4099 bf16" "testdata/kernels/fused_add_layernorm.rk 3x1001 f32"; do set -- $p; compute-sanitizer --tool memcheck --error-exitcode 9 .carry/rkc run $1 --shape $2 --dtype $3 --inputs bench/heldout/inputs.json --check 2>&1 | grep -E "RESULT|ERROR SUMMARY"; done' > $OUT/memcheck.txt 2>&1
timeout 300 python3 bench/torch_compare.py --rkc .carry/rkc --heldout bench/heldout --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --csv $OUT/tc_heldout_bf16.csv > $OUT/tc_heldout_bf16.txt 2>&1
cat $OUT/ab_report.txt | cut -c1-75
cat $OUT/memcheck.txt
grep geomean $OUT/tc_heldout_bf16.txt
python3 -c "
import csv
for r in csv.DictReader(open('$OUT/tc_heldout_bf16.csv')):
    if r.get('speedup') and float(r['speedup'])<1.0 or r['rkc_ok']!='ok': print(r['kernel'], r['M']+'x'+r['N'], r.get('rkc_us'), r.get('torch_us'), r.get('speedup'), r['rkc_ok'])
"
