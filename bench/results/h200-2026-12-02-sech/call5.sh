#!/bin/bash
# Call 5: a kernel with no reduction (tanh_back) at few long rows, where the pick leaves SMs idle
# (a cluster of 2 a row at 32 and 64 rows, a CTA a row at 300): the pick against clusters of 4,
# 8 and 16 a row (CTAs that exchange nothing), bf16 and fp32.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
LIMIT=200 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s58/ab5-points.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"; rm -rf "$OUT/ab"
cut -c1-200 "$OUT/ab-table.txt" | head -24
