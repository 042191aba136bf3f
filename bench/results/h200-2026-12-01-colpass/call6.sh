#!/bin/bash
# Call 6: settle_colpass (the column pass in place of the own pass where the slots are 1/4 of
# the inputs or more, same rows): the old build's pick (PTX carried in .carry/ab6) against the
# new build's at 6 points no rule was fitted on and the 4 of call 4 it takes.
set -u
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc
LIMIT=300 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts6.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > "$OUT/call6-ab-table.txt" 2>&1
cut -c1-90 "$OUT/call6-ab-table.txt"
gzip -c $OUT/ab/ab.txt > $OUT/call6-ab.txt.gz
