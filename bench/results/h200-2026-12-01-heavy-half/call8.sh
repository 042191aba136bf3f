#!/bin/bash
# call 8: settle_kept_chunk's second trigger (a heavy first pass at 2 chunks halved, so the
# cp.async fill takes it): the old build's pick (its PTX) against the new pick at the 5 sm_90
# golden points and 8 held-out points it moves
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
LIMIT=300 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts8.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
cut -c1-100 $OUT/ab-table.txt | tail -17
