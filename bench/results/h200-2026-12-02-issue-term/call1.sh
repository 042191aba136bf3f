#!/bin/bash
# call 1: the issue term (heuristics/cost.c issue_us): the old build's pick against the new
# build's, every knob given, at the first 200 of the 291 points movepts.py found
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-02-issue-term
gunzip -c .carry/rkc.gz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $O/gpu.txt 2>&1
LIMIT=500 COPY=4274 OUT=$O timeout 540 bash bench/ab.sh /tmp/rkc $D/call1-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $O/ab.txt > $O/ab-table.txt 2>&1
gzip -9 $O/ab.txt
cat $O/gpu.txt; head -3 $O/ab-table.txt | cut -c1-90; tail -8 $O/ab-table.txt | cut -c1-150
