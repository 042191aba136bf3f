#!/bin/bash
# call 8: the steps bound at 3 CTAs an SM (STEPS_MAX_CTAS 3, not committed): the 4 sm_90 golden
# picks and 6 off-suite points it adds, the committed pick (steps=0) against the new
R=.carry/rkc
LIMIT=300 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts8.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
gzip -f $OUT/ab/ab.txt $OUT/ab-run.log
cut -c1-80 $OUT/ab-table.txt
