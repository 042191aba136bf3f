#!/bin/bash
# call 3: which knob made the kept-row family of call 2 faster at gated_rmsnorm, rms_norm and
# softmax: each pick against itself with half the r_block, the cp.async fill, no stash, and the
# other warp count (min_ctas as the policy settles it for each)
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
LIMIT=280 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts3.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
cut -c1-100 $OUT/ab-table.txt | tail -26
