#!/bin/bash
# call 3: grid of clusters with the colsums' own pass (rows whose segment's partials pass shared memory)
set -u
OUT=$OUT/san bash bench/sanitize_new.sh .carry/rkc 150001 > $OUT/san_own.txt 2>&1
OUT=$OUT/san2 bash bench/sanitize_new.sh .carry/rkc 8x1000003 > $OUT/san_colonly.txt 2>&1
tail -n 3 $OUT/san_own.txt $OUT/san_colonly.txt
LIMIT=300 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts3.txt > $OUT/ab_stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab_report.txt
for d in bf16 f32; do
python3 bench/torch_compare.py --rkc .carry/rkc --heldout bench/heldout --suites heldout --kernels colonly --dtype $d --shapes-per-kernel 7 --copy-gbps 4274 --csv $OUT/tc_colonly_$d.csv --workdir /tmp/tcw > $OUT/tc_colonly_$d.txt 2>&1
tail -n 9 $OUT/tc_colonly_$d.txt
done
rm -f $OUT/torch_compare.json
tail -n 30 $OUT/ab_report.txt | cut -c1-110
