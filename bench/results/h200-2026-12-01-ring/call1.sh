#!/bin/bash
# call 1: the ring (ahead >= 2) on the GPU: sanitizers at odd shapes, then the A/B of the pick
# against ahead=2/3 at the norm backward picks of ahead=1, and persistent grids with the ring
# against CTA-per-row picks of other kernels (points: call1-points.txt as .carry/pts1.txt)
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv > $OUT/env.txt
OUT=$OUT/san timeout 150 bash bench/sanitize_new.sh $R "ahead=2|ahead=3|ahead=4" > $OUT/sanitize.log 2>&1; echo "sanitize: $?"
LIMIT=330 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts1.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
