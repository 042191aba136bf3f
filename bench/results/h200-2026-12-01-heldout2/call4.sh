#!/bin/bash
# call 4: A/B at tiny rows: the pick against the same config at twice the threads a row (m_block
# halved), where the pick's threads hold two or more vectors of a row
mkdir -p $OUT
LIMIT=480 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/tiny_pts.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab/table.txt 2>&1
tail -110 $OUT/ab/table.txt
cd $OUT && gzip ab/ab.txt
