#!/bin/bash
# call 8: the two fp32 points call 7 measured slower, and two beside them, again
R=.carry/rkc
mkdir -p $OUT/keep; tar xzf .carry/ab.tgz
LIMIT=300 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/s45/call8-points.txt > $OUT/keep/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/keep/ab-table.txt 2>&1
cp $OUT/ab/ab.txt $OUT/keep/ab.txt; rm -rf $OUT/ab
tail -30 $OUT/keep/ab-table.txt | cut -c1-120
tar czf $OUT/keep.tgz -C $OUT keep && rm -rf $OUT/keep
