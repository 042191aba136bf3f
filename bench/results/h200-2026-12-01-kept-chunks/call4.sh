#!/bin/bash
# call 4: settle_kept_chunk (half the r_block of a register-filled kept row of at most 3 chunks a
# CTA): old pick against new at the 66 sm_90 golden picks it moves and 15 held-out points, in a
# shuffled order; two new picks checked against float64
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
timeout 60 $R run testdata/kernels/gated_rmsnorm.rk --shape 700x250000 --dtype bf16 --check 2>&1 | tail -1 > $OUT/checks.txt
timeout 60 $R run testdata/kernels/fused_linear_jsd.rk --shape 3000x70001 --dtype f32 --check 2>&1 | tail -1 >> $OUT/checks.txt
LIMIT=420 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts4.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
cut -c1-150 $OUT/checks.txt
cut -c1-72 $OUT/ab-table.txt | tail -90
