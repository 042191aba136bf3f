#!/bin/bash
# call 5: settle_kept_chunk as committed (half the r_block only where the model's CTAs an SM
# rise and the launch has more CTAs than SMs): old pick against new at the 4 sm_90 golden picks
# it moves that call 4 did not reach and 20 held-out points (2 a kernel, fp16 among them); two
# new picks checked against float64
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
timeout 60 $R run testdata/kernels/gelu_tanh_gated.rk --shape 2500x300007 --dtype bf16 --check 2>&1 | tail -1 > $OUT/checks.txt
timeout 60 $R run testdata/kernels/welford.rk --shape 1000x180000 --dtype f32 --check 2>&1 | tail -1 >> $OUT/checks.txt
LIMIT=270 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts5.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
cut -c1-150 $OUT/checks.txt
cut -c1-72 $OUT/ab-table.txt | tail -30
