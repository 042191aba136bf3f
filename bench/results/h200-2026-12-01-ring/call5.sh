#!/bin/bash
# call 5: the norm backward kernels at 32 warps an SM, which only the ring fits (64 registers)
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
LIMIT=200 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts5.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
cut -c1-100 $OUT/ab-table.txt | tail -18
