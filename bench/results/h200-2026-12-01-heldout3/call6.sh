#!/bin/bash
# Sums over rows at tiny rows: rkc tune on the final build, where the picks' CTA shapes fall behind.
set -u
R=/tmp/rkc; gunzip -c .carry/rkc.gz > $R; chmod +x $R
for pt in "bench/heldout/bias_grad.rk bf16 262144x64" "bench/heldout/bias_grad.rk bf16 1048576x32" "bench/heldout/bias_grad.rk f32 262144x64" "testdata/kernels/rms_norm_backward.rk bf16 262144x64" "testdata/kernels/layer_norm_backward.rk bf16 262144x128" "bench/heldout/bias_grad.rk bf16 8x1000003"; do
	set -- $pt
	b=$(basename $1 .rk)
	timeout 100 $R tune $1 --shape $3 --dtype $2 --top 12 --no-check --copy-gbps 4274 > $OUT/tune-$b-$2-$3.txt 2>&1
	echo "== $b $2 $3"; grep -v "^TUNE" $OUT/tune-$b-$2-$3.txt | tail -16
done
