#!/bin/bash
# Call 7: the heavy-math tie's threshold, a light control: the pick (no row ahead) against the
# next block ahead at the same row tiling, forced, for a dropout mask's gradient with its sum over
# rows (6 instructions an element), bf16.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
LIMIT=150 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s58/ab7-points.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"; rm -rf "$OUT/ab"
cut -c1-110 "$OUT/ab-table.txt" | head -12
