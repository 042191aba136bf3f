#!/bin/bash
# call 5 (H100): the same change (OCCUPANCY_AHEAD 0.08 -> 0) at the 63 drawn points it moves
# (1356 drawn, seed 8501), then at the 26 sm_90 batch-invariant golden points it moves; the old
# pick forced against the new pick, every run checked against float64 (bench/ab.sh).
set -u
xz -dc .carry/rkc-new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
T0=$(date +%s)
OUT=$OUT/drawn COPY=3027 LIMIT=300 bash bench/ab.sh /tmp/rkc bench/results/h100-2026-12-06-grid-wait/drawn-all-points.txt > $OUT/drawn_table.txt 2>&1
OUT=$OUT/inv COPY=3027 LIMIT=$(( 420 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc bench/results/h100-2026-12-06-grid-wait/invariant-points.txt > $OUT/inv_table.txt 2>&1
cut -c1-110 $OUT/drawn_table.txt; cut -c1-110 $OUT/inv_table.txt
echo "total: $(( $(date +%s) - T0 )) s"
