#!/bin/bash
# call 2: the tail in groups of G vectors (1, 2, 4, 8) against the old PTX at 21 points
R=.carry/rkc
tar xzf .carry/ab2.tgz
LIMIT=500 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts2.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
gzip -f $OUT/ab/ab.txt $OUT/ab-run.log
tail -3 $OUT/ab-table.txt
