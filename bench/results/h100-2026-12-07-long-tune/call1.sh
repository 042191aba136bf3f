#!/bin/bash
# Call 1 (95th session): `rkc tune` at the six slowest long_rows points of h100-2026-12-07-bar2
# (70-79% of copy): the policy's first 16 candidates and its extra ones timed against its pick,
# not checked (--no-check: the pick was checked in that run). Run from the repository root on the
# GPU host, carrying the build as .carry/rkc-t.xz; everything goes to $OUT/tune.log.
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc-t.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
L=$OUT/tune.log
T0=$(date +%s)
for p in "layer_norm bf16 512x256000" "scaled_masked_softmax bf16 1024x163840" "gated_rmsnorm bf16 2048x152064" \
	"dynamic_quant f32 2048x201088" "rms_norm bf16 1024x201088" "welford f32 3072x151936"; do
	set -- $p
	echo "== $p" >>$L
	timeout 70 /tmp/rkc tune testdata/kernels/$1.rk --dtype $2 --shape $3 --top 16 --no-check --copy-gbps 3027 >>$L 2>&1
	echo "$p: $(grep -o 'seed/best [0-9.]*\|best [A-Z][^:]*: [0-9.]* us' $L | tail -2 | tr '\n' ' ') ($(($(date +%s) - T0)) s)"
done
