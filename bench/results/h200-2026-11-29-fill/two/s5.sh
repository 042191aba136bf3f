#!/bin/bash
# The heavy-math kept-row picks of 2 chunks a CTA: the register fill (the pick) against cp.async
# (smem=2) at the same config, bench/ab.sh (old, new checked, new, old).
set -u
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader; } > $OUT/env.txt
LIMIT=300 COPY=4274 OUT=$OUT/ab bench/ab.sh .carry/rkc .carry/two_pts.txt > $OUT/report.txt 2>&1
grep -v '^{' $OUT/report.txt | cut -c1-100 | tail -20
