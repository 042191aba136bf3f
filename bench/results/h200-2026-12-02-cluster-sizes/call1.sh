#!/bin/bash
# Call 1: which cluster sizes the driver holds (1-16 CTAs at 1-8 CTAs an SM), and kept rows over
# clusters of 3-15 CTAs against the policy's power-of-two pick at 8 multi-wave points.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/smi.txt" 2>&1
python3 .carry/s59/occ_table.py .carry/s59/occ.ptx .carry/s59/occ.json > "$OUT/occ-table.txt" 2>&1
cat "$OUT/occ-table.txt"
LIMIT=420 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s59/ab1-points.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
cp "$OUT/ab/ab.txt" "$OUT/ab1.txt"; rm -rf "$OUT/ab"
cut -c1-120 "$OUT/ab-table.txt" | head -40
