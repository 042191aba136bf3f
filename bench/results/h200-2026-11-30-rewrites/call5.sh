#!/bin/bash
# call 5: short rows (512-2048 columns, many rows) at one row a CTA (the pick's threads a row, m_block=1) against the pick's row blocks
R=.carry/rkc
mkdir -p $OUT/keep
LIMIT=360 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/s45/rows1-points.txt > $OUT/keep/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/keep/ab-table.txt 2>&1
cp $OUT/ab/ab.txt $OUT/keep/ab.txt; rm -rf $OUT/ab
tail -66 $OUT/keep/ab-table.txt | cut -c1-110
tar czf $OUT/keep.tgz -C $OUT keep && rm -rf $OUT/keep
