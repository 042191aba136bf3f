#!/bin/bash
# call 5: the register model refit, four terms: A/B old pick vs new pick
set -u
LIMIT=400 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts6.txt > $OUT/ab_stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab_report.txt
cp $OUT/ab/ab.txt $OUT/ab.txt; rm -rf $OUT/ab
tail -n 75 $OUT/ab_report.txt | cut -c1-100
