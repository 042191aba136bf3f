#!/bin/bash
# call 5: narrow few rows of the norm backward kernels: the pick against cooperative bands of 1, 2 and 4 warps forced
R=.carry/rkc
mkdir -p $OUT/keep
LIMIT=330 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/bands-narrow.txt > $OUT/keep/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
cp $OUT/ab/ab.txt $OUT/keep/ab.txt; rm -rf $OUT/ab
awk '{printf "%s %s %s", $1, $2, $3; for(i=4;i<=NF;i++) if($i ~ /^[0-9]+\.[0-9]+$/) printf " %s", $i; print ""}' $OUT/ab-table.txt | tail -28
grep -o '"num_warps":[0-9]*,"vec":[0-9]*,"split":1,"evict":1,"min_ctas":[0-9]*,"smem":[0-9]*,"cluster":[0-9]*' $OUT/ab-table.txt | head -30
tar czf $OUT/keep.tgz -C $OUT keep && rm -rf $OUT/keep
