#!/bin/bash
# Call 6: the heavy-math tie's threshold: the final build's pick (AHEAD_MATH_OPS 16) against a
# build with 8 (its PTX carried) at the 25 points that moves: bias_silu_back (15 instructions
# an element) and rms_norm_backward (14), bf16, fp16 and fp32.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
LIMIT=240 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s58/ab6-points.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"; rm -rf "$OUT/ab"
cut -c1-110 "$OUT/ab-table.txt" | head -32
