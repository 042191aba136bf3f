#!/bin/bash
# call 5: the cost model counts the read-back only where no persistent row fits: the 13 sm_90
# golden picks it moves (11 batch-invariant) and 8 off the suites, old pick's PTX against new
mkdir -p $OUT/ab
LIMIT=240 COPY=4274 OUT=$OUT/ab timeout 270 bash bench/ab.sh .carry/rkc .carry/pts.txt > $OUT/ab-report.txt 2>&1
sed 's/  {.*//' $OUT/ab-report.txt | tail -26
