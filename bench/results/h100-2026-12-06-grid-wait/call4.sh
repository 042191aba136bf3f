#!/bin/bash
# call 4 (H100): no ranking penalty for a lone CTA walking a persistent grid with its next block
# ahead (OCCUPANCY_AHEAD 0.08 -> 0). memcheck at two new picks (a lone CTA of 16 warps, two and
# four rows a block); then the 24 sm_90 golden points it moves, the old pick forced against the
# new pick, every run checked against float64 (bench/ab.sh).
set -u
xz -dc .carry/rkc-new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
T0=$(date +%s)
for p in "testdata/kernels/layer_norm_backward.rk bf16 1000x4096" "bench/heldout/rms_colsum.rk bf16 1878x2343"; do
  set -- $p
  f=$OUT/memcheck-$(basename $1 .rk)-$2-$3.txt
  timeout 60 compute-sanitizer --tool memcheck /tmp/rkc run $1 --dtype $2 --shape $3 --check > $f 2>&1
  echo "memcheck $p: $(grep '^RESULT' $f | grep -o 'status=[a-zA-Z]*') $(grep 'ERROR SUMMARY' $f | tail -1)"
done
OUT=$OUT/golden COPY=3027 LIMIT=$(( 330 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc bench/results/h100-2026-12-06-grid-wait/golden-points.txt > $OUT/golden_table.txt 2>&1
cut -c1-120 $OUT/golden_table.txt
echo "total: $(( $(date +%s) - T0 )) s"
