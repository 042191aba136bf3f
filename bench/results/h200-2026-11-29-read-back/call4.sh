#!/bin/bash
# call 4: the cost model counts the read-back: the 20 sm_90 golden picks it moves, old pick
# (forced) against new, one binary
mkdir -p $OUT/ab
LIMIT=230 COPY=4274 OUT=$OUT/ab timeout 260 bash bench/ab.sh .carry/rkc .carry/pts.txt > $OUT/ab-report.txt 2>&1
sed 's/  {.*//' $OUT/ab-report.txt | tail -26
