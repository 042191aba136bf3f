#!/bin/bash
# call 1: A/B of the occupancy rule for launches of at most a CTA an SM
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
LIMIT=530 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
gzip -f $OUT/ab/ab.txt; gzip -f $OUT/ab-run.log
tail -60 $OUT/ab-table.txt
