#!/bin/bash
# call 2: grid of clusters at no more than 2 CTAs an SM; sanitizers, A/B old pick vs new pick, few_rows_bwd vs torch.compile
set -u
OUT=$OUT/san bash bench/sanitize_new.sh .carry/rkc cluster= > $OUT/san_cluster.txt 2>&1
OUT=$OUT/san2 bash bench/sanitize_new.sh .carry/rkc colonly > $OUT/san_colonly.txt 2>&1
tail -n 3 $OUT/san_cluster.txt $OUT/san_colonly.txt
LIMIT=300 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts2.txt > $OUT/ab_stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab_report.txt
for d in bf16 f32; do
python3 bench/torch_compare.py --rkc .carry/rkc --suites few_rows_bwd --dtype $d --shapes-per-kernel 6 --copy-gbps 4274 --csv $OUT/tc_$d.csv > $OUT/tc_$d.txt 2>&1
tail -n 4 $OUT/tc_$d.txt
done
tail -n 25 $OUT/ab_report.txt | cut -c1-120
