#!/bin/bash
# Call 1: the whole kernel in the column pass, a sweep of grids past the resident CTAs (few
# positions a CTA, inductor's shape of work) against the pick and rkc tune's cand p.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > "$OUT/env.txt"
LIMIT=500 bash .carry/s57/sweep.sh $R .carry/s57/points1.txt "$OUT/sweep.txt"
python3 .carry/s57/table.py "$OUT/sweep.txt" > "$OUT/table.txt"
cat "$OUT/table.txt"
