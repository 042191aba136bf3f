#!/bin/bash
# Call 5 (occupancy, rows): as call 4 at more rows (32 to 512) and two kernels (bias_gelu_back, the
# test kernel colpass_whole), the pick against 8 warps x 4 CTAs (grid 528) and 4 x 8 (1056).
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
LIMIT=400 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s56/points5.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"; gzip "$OUT/ab-run.log"; rm -rf "$OUT/ab"
grep -c RESULT "$OUT/ab-table.txt"; cut -c1-100 "$OUT/ab-table.txt" | head -45; tail -3 "$OUT/ab-table.txt" | cut -c1-200
