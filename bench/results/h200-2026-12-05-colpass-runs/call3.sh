#!/bin/bash
# call 3 (80th session): column-pass slices of 4 or more 64-byte accesses rounded up to whole ones
# (COLPASS_SLICE_RUNS, colpass_slice), where rows start on one. old = the build with 64-byte runs
# (2b7827e), new = it with the slices; each its own pick (no pick moves: slices only), at 14 of the
# 226 points whose slice moves, and first rms_colsum bf16 4096x131072 at one forced config (grid 396:
# 84 positions before, 88 after).
set -u
xz -dc .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
xz -dc .carry/base.xz > /tmp/rkc-base && chmod +x /tmp/rkc-base
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
T0=$(date +%s)
S=$OUT/memcheck.txt
timeout 60 compute-sanitizer --tool memcheck /tmp/rkc run testdata/kernels/rms_norm_backward.rk --dtype fp32 --shape 16x131072 --check > $S 2>&1
echo "memcheck rms_norm_backward fp32 16x131072: $(grep '^RESULT' $S | tail -1 | grep -o 'status=[a-zA-Z]*') $(grep 'ERROR SUMMARY' $S | tail -1)"
OUT=$OUT/ab COPY=4274 OLD_RKC=/tmp/rkc-base LIMIT=$(( 290 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s80/points3.txt > $OUT/ab_table.txt 2>&1
cat $OUT/ab_table.txt | cut -c1-260
echo "total: $(( $(date +%s) - T0 )) s"
