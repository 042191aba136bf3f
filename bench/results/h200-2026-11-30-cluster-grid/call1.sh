#!/bin/bash
# call 1: grid of clusters for few-row colsum kernels: A/B old pick vs new pick, sanitizers
set -u
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > $OUT/gpu.txt
OUT=$OUT/san bash bench/sanitize_new.sh .carry/rkc cluster= > $OUT/san_cluster.txt 2>&1
OUT=$OUT/san2 bash bench/sanitize_new.sh .carry/rkc colonly > $OUT/san_colonly.txt 2>&1
tail -3 $OUT/san_cluster.txt $OUT/san_colonly.txt
LIMIT=330 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts1.txt > $OUT/ab_stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt | tee $OUT/ab_report.txt | tail -50
