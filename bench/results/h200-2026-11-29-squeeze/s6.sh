#!/bin/bash
# min_ctas one higher where the capped count is within 8 registers over that cap (the policy
# stays one lower): the pick against the same config at min_ctas + 1, bench/ab.sh.
set -u
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader; } > $OUT/env.txt
LIMIT=230 COPY=4274 OUT=$OUT/ab bench/ab.sh .carry/rkc .carry/mc_pts.txt > $OUT/report.txt 2>&1
grep -v '^{' $OUT/report.txt | cut -c1-100 | tail -45
