#!/bin/bash
# call 4: the register model refit (merged with the grid of clusters): A/B old pick vs new pick; the own-pass sanitizer line
set -u
OUT=$OUT/san bash bench/sanitize_new.sh .carry/rkc 150001 > $OUT/san_own.txt 2>&1
tail -n 3 $OUT/san_own.txt
LIMIT=420 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts5.txt > $OUT/ab_stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab_report.txt
cp $OUT/ab/ab.txt $OUT/ab.txt; cp $OUT/san/sanitize-new.log $OUT/san_own.log
rm -rf $OUT/ab $OUT/san
tail -n 70 $OUT/ab_report.txt | cut -c1-100
