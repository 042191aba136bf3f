#!/bin/bash
# Call 9: the slices as committed (a chain of FILL_MATH_OPS instructions an element or more):
# the old pick's PTX against the new pick at 8 more fresh points.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
LIMIT=200 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s57/ab9-points.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"; rm -rf "$OUT/ab"
cut -c1-100 "$OUT/ab-table.txt" | head -12; tail -3 "$OUT/ab-table.txt" | cut -c1-200
