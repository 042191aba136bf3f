#!/bin/bash
# Call 7, the final build: the column pass under the sanitizers (7 lines), and the
# batch-invariant picks settle_colpass moves, the old build's pick (PTX carried in .carry/ab7)
# against the new build's.
set -u
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
OUT=$OUT/san bash bench/sanitize_new.sh $R "colpass=1" > "$OUT/call7-sanitize.txt" 2>&1
tail -1 "$OUT/call7-sanitize.txt"
gzip -c $OUT/san/sanitize-new.log > $OUT/call7-sanitize.log.gz
LIMIT=200 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts7.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > "$OUT/call7-ab-table.txt" 2>&1
cut -c1-90 "$OUT/call7-ab-table.txt"
gzip -c $OUT/ab/ab.txt > $OUT/call7-ab.txt.gz
