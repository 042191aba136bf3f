#!/bin/bash
# Call 1: the column pass (colpass=1) under the sanitizers, then each point's pick against the
# same pick with colpass=1 (smem=0 where the pick kept its partials in shared memory).
set -u
D=bench/results/h200-2026-12-01-colpass
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv > "$OUT/call1-env.txt"
OUT=$OUT/san bash bench/sanitize_new.sh .carry/rkc "colpass=1" > "$OUT/call1-sanitize.txt" 2>&1
tail -8 "$OUT/call1-sanitize.txt"
LIMIT=330 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc $D/call1-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > "$OUT/call1-ab-table.txt" 2>&1
cat "$OUT/call1-ab-table.txt"
gzip -c $OUT/ab/ab.txt > $OUT/call1-ab.txt.gz
