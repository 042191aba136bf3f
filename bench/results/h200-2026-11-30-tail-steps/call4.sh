#!/bin/bash
# call 4: the steps rule (at most 2 CTAs an SM raised by the stepped tail): the 24 sm_90 golden
# picks it moves and 12 off-suite points, the old pick (steps=0) against the new
R=.carry/rkc
LIMIT=400 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts4.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
gzip -f $OUT/ab/ab.txt $OUT/ab-run.log
cut -c1-80 $OUT/ab-table.txt
