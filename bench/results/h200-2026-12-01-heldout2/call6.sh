#!/bin/bash
# call 6: the pick against the same config at the largest min_ctas whose ptxas cap holds the
# model's predicted registers, where the pick's cap is under them (110 points, smallest first)
mkdir -p $OUT
LIMIT=400 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/cap_pts.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab/table.txt 2>&1
grep -A3 "points: new/old" $OUT/ab/table.txt | head -4
cd $OUT && gzip ab/ab.txt
