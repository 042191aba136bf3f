#!/bin/bash
# call 7: gelu_tanh_gated off the training suite (tiny, odd, few and one rows), old PTX against the final build
R=.carry/rkc
mkdir -p $OUT/keep; tar xzf .carry/ab.tgz
LIMIT=300 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/s45/call7-points.txt > $OUT/keep/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/keep/ab-table.txt 2>&1
cp $OUT/ab/ab.txt $OUT/keep/ab.txt; rm -rf $OUT/ab
tail -30 $OUT/keep/ab-table.txt | cut -c1-120
tar czf $OUT/keep.tgz -C $OUT keep && rm -rf $OUT/keep
