#!/bin/bash
# Call 2: call 1's A/B again (call 1's point lines carried a comment that bench/ab.sh passed on).
set -u
D=bench/results/h200-2026-12-01-colpass
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc
LIMIT=330 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc $D/call1-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > "$OUT/call2-ab-table.txt" 2>&1
cat "$OUT/call2-ab-table.txt"
gzip -c $OUT/ab/ab.txt > $OUT/call2-ab.txt.gz
