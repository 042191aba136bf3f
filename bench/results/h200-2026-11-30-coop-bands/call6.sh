#!/bin/bash
# call 6: one narrow row (12288-65536 columns): the pick before against the widest band whose segments fill 4 warps
R=.carry/rkc
mkdir -p $OUT/keep
LIMIT=330 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/bands-row1.txt > $OUT/keep/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
cp $OUT/ab/ab.txt $OUT/keep/ab.txt; rm -rf $OUT/ab
awk '{printf "%s %s %s", $1, $2, $3; for(i=4;i<=NF;i++) if($i ~ /^[0-9]+\.[0-9]+$/) printf " %s", $i; print ""}' $OUT/ab-table.txt | tail -28
tar czf $OUT/keep.tgz -C $OUT keep && rm -rf $OUT/keep
