#!/bin/bash
# Call 4 (occupancy): the whole kernel in the column pass at misaligned widths, the pick (one CTA
# of 16 warps an SM at most picks, 128 registers) against more CTAs an SM of fewer warps at
# fewer registers: 8 warps x 2 CTAs (grid 264), 8 x 4 (528), 4 x 8 (1056), forced (bench/ab.sh,
# the build of b982c45's code); torch.compile's kernels ran 40-64 warps an SM at 32-64
# registers (call 3).
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
LIMIT=400 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s56/points4.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"; gzip "$OUT/ab-run.log"; rm -rf "$OUT/ab"
grep -c RESULT "$OUT/ab-table.txt"; cut -c1-100 "$OUT/ab-table.txt" | head -45; tail -3 "$OUT/ab-table.txt" | cut -c1-200
