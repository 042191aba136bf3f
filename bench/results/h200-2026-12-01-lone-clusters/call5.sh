#!/bin/bash
# call 5: drop_lone_clusters at 19 points held out from its measurements (fp16, M 300 and 777,
# N 300007 and 524288): old pick against new, and two new picks checked against float64
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
timeout 60 $R run testdata/kernels/gated_rmsnorm.rk --shape 300x300007 --dtype f32 --check 2>&1 | tail -4 > $OUT/checks.txt
timeout 60 $R run testdata/kernels/fused_linear_jsd.rk --shape 300x524288 --dtype fp16 --check 2>&1 | tail -4 >> $OUT/checks.txt
LIMIT=420 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts5.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
grep -E "rel_l2|RESULT" $OUT/checks.txt | cut -c1-150
cut -c1-70 $OUT/ab-table.txt | tail -24
