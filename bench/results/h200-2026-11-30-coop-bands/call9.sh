#!/bin/bash
# call 9: a few rows on one cooperative band walking every row (the one slot, no combine) against the pick (a band a row and the combine)
R=.carry/rkc
mkdir -p $OUT/keep
LIMIT=400 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/bands-one-band.txt > $OUT/keep/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
cp $OUT/ab/ab.txt $OUT/keep/ab.txt; rm -rf $OUT/ab
awk '{printf "%s %s %s", $1, $2, $3; for(i=4;i<=NF;i++) if($i ~ /^[0-9]+\.[0-9]+$/) printf " %s", $i; print ""}' $OUT/ab-table.txt | tail -36
tar czf $OUT/keep.tgz -C $OUT keep && rm -rf $OUT/keep
