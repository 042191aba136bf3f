#!/bin/bash
# call 6: the combine floor counted over the grid of clusters' CTAs: A/B old pick vs new pick
set -u
LIMIT=120 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts8.txt > $OUT/ab_stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab_report.txt
cp $OUT/ab/ab.txt $OUT/ab.txt; rm -rf $OUT/ab
tail -n 75 $OUT/ab_report.txt | cut -c1-100
