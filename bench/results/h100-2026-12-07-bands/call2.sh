#!/bin/bash
# The bands, second call (H100): the branch's build with two bands or more (ROW_BANDS_MIN,
# .carry/rkc-bands2.xz). main's pick forced (old) against the branch's pick (new) at 24 points of
# the class drawn at random (drawpts.py, seed 1207: none was measured before the rule), then at
# the 7 golden points whose pick the rule moved from call 1's. Run from the repository root.
set -u
xz -dc .carry/rkc-bands2.xz > /tmp/rkc && chmod +x /tmp/rkc
D=bench/results/h100-2026-12-07-bands
LIMIT=150 COPY=3027 OUT=$OUT/abd bash bench/ab.sh /tmp/rkc $D/bands-drawn-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/abd/ab.txt > $OUT/bands-drawn-table.txt 2>&1; gzip -9 $OUT/abd/ab.txt
LIMIT=60 COPY=3027 OUT=$OUT/ab2 bash bench/ab.sh /tmp/rkc $D/bands-ab2-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/ab2/ab.txt > $OUT/bands-ab2-table.txt 2>&1; gzip -9 $OUT/ab2/ab.txt
cut -c1-90 $OUT/bands-drawn-table.txt; cut -c1-90 $OUT/bands-ab2-table.txt
