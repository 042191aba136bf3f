#!/bin/bash
# call 1 (80th session): the column pass's turns read at least 64 bytes of a row (COLPASS_RUN,
# colpass_lanes). Each build its own pick (OLD_RKC: the build before), at the points on record and
# fresh points whose lanes or pick it moves; first rms_colsum bf16 4096x131072 at one forced config
# (grid 396, 3 CTAs an SM: 4 lanes before, 8 after); memcheck at two moved points.
set -u
xz -dc .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
xz -dc .carry/base.xz > /tmp/rkc-base && chmod +x /tmp/rkc-base
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
T0=$(date +%s)
S=$OUT/memcheck.txt
for p in "bench/heldout/bias_grad.rk bf16 2000x30000" "bench/heldout/rms_colsum.rk fp32 1500x98304"; do
  set -- $p
  echo "### $p" >> $S
  timeout 90 compute-sanitizer --tool memcheck /tmp/rkc run $1 --dtype $2 --shape $3 --check >> $S 2>&1
  echo "memcheck $p: $(grep '^RESULT' $S | tail -1 | grep -o 'status=[a-zA-Z]*') $(grep 'ERROR SUMMARY' $S | tail -1)"
done
echo "memcheck: $(( $(date +%s) - T0 )) s"
OUT=$OUT/ab COPY=4274 OLD_RKC=/tmp/rkc-base LIMIT=$(( 400 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s80/points.txt  # points.txt: this directory's > $OUT/ab_table.txt 2>&1
cat $OUT/ab_table.txt | cut -c1-260
echo "total: $(( $(date +%s) - T0 )) s"
