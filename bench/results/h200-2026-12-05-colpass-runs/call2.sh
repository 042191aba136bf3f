#!/bin/bash
# call 2 (80th session): the column pass's turns read at least 64 bytes of a row (COLPASS_RUN,
# colpass_lanes). Each build its own pick (OLD_RKC: the build before), at the points on record and
# fresh points whose lanes or pick it moves: on an H100 this time, call 1's (H200) key points and
# two it left unrun; first rms_colsum bf16 4096x131072 at one forced config (4 lanes before, 8 after).
set -u
xz -dc .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
xz -dc .carry/base.xz > /tmp/rkc-base && chmod +x /tmp/rkc-base
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
T0=$(date +%s)
OUT=$OUT/ab COPY=4274 OLD_RKC=/tmp/rkc-base LIMIT=$(( 360 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s80/points2.txt > $OUT/ab_table.txt 2>&1
cat $OUT/ab_table.txt | cut -c1-260
echo "total: $(( $(date +%s) - T0 )) s"
