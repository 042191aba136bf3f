#!/bin/bash
# Call 4: the cluster slots as the fewer of the driver's table and the GPC count, at fresh
# points (16 kernels, M 24-3000, N 100000-520000, bf16 and fp32; 48 of the 71 whose pick it
# moves, drawn with seed 59): the old build's pick forced against the new build's pick.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
LIMIT=290 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s59/ab4-points.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
cp "$OUT/ab/ab.txt" "$OUT/ab4.txt"; rm -rf "$OUT/ab"
cut -c1-100 "$OUT/ab-table.txt" | head -60
