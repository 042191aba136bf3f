#!/bin/bash
# call 2: the policy with the ring (settle_ring, ring_offered; before RING_MIN_BLOCKS): the old
# build's pick (its PTX, made here by bench/ab_ptx.sh -any-config OLD NEW call2-points.txt
# .carry/ab) against the new build's pick at the 22 sm_90 golden points it moved and 22 held out;
# sanitizers on the two picks' lines
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
OUT=$OUT/san timeout 120 bash bench/sanitize_new.sh $R "777x4000|3001x640" > $OUT/sanitize.log 2>&1; echo "sanitize: $?"
LIMIT=400 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts2.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
