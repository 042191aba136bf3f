#!/bin/bash
# Call 5: the column pass offered in place of the colsums' own pass too (colpass_offered with
# colsum_late): the old build's pick (PTX carried in .carry/ab5) against the new build's at 16
# points of the own pass's regime (8 golden, 8 held out).
set -u
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc
LIMIT=450 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts5.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > "$OUT/call5-ab-table.txt" 2>&1
cut -c1-90 "$OUT/call5-ab-table.txt"
gzip -c $OUT/ab/ab.txt > $OUT/call5-ab.txt.gz
