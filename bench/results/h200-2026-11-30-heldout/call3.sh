#!/bin/bash
# call 3: stores moved up to their values (order_stores): old PTX against the new build's pick
mkdir -p $OUT
LIMIT=520 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts2.txt > $OUT/ab_stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab_report.txt 2>&1 || true
tail -75 $OUT/ab_report.txt
