#!/bin/bash
# Call 4: the column pass forced over the picks that sum their colsums in a pass of their own
# (colsum_late: the inputs read again from HBM either way), the final lanes (colpass_lanes).
set -u
D=bench/results/h200-2026-12-01-colpass
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc
LIMIT=400 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc $D/call4-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > "$OUT/call4-ab-table.txt" 2>&1
cut -c1-90 "$OUT/call4-ab-table.txt"
gzip -c $OUT/ab/ab.txt > $OUT/call4-ab.txt.gz
