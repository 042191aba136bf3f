#!/bin/bash
# Call 6: the new column-pass picks checked against float64 at odd, few, tiny and padded rows in
# every dtype (bench/robust_gpu.sh over the six kernels with a whole column pass), memcheck on each.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
mkdir -p /tmp/nogen
K="bench/heldout/bias_gelu_back.rk bench/heldout/bias_grad.rk tests/codegen/colpass_whole.rk tests/heuristics/kernels/bias_silu_back.rk .carry/s57/k/drop_back.rk .carry/s57/k/wgrad.rk"
SHAPES="1x1 3x7 5x1000 1x65537 2x4099 7x524309 64x50257 300x30011 13x40009 127x131071 2000x30000 33x12345 1024x4096 40x60013" \
	DTYPES="bf16 f16 f32" POLICIES=rkc PAD=16 JOBS=6 MEMCHECK=6 KERNELS="$K" \
	timeout 560 bash bench/robust_gpu.sh $R /tmp/nogen >"$OUT/robust-run.txt" 2>&1
echo "robust: exit $?"
tail -5 "$OUT/robust-run.txt"
gzip "$OUT/robust.log"
