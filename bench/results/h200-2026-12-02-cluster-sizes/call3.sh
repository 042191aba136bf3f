#!/bin/bash
# Call 3: the driver's resident CTAs in clusters at 1-32 CTAs an SM; the cost model counting
# cluster slots from the driver's table (1-8 CTAs an SM) against the GPC count: the 34 sm_90
# golden picks it moves, old pick forced against the new build's pick.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
python3 .carry/s59/occ_table.py .carry/s59/occ.ptx .carry/s59/occ.json > "$OUT/occ-table-1-32.txt" 2>&1
LIMIT=470 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s59/ab3-points.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
cp "$OUT/ab/ab.txt" "$OUT/ab3.txt"; rm -rf "$OUT/ab"
cat "$OUT/occ-table-1-32.txt"
cut -c1-100 "$OUT/ab-table.txt" | head -45
