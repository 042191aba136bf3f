#!/bin/bash
# Call 1 (98th session): where the few_rows points that move 64 MB or more lose their time. Per
# point the pick's regions (rkc run --regions --time --check: the stamped launch, its table, and the
# plain kernel timed beside it), then `rkc tune --top 10 --no-check` (the policy's first 10
# candidates and its extras against its pick). Run from the repository root on the GPU host,
# carrying main's static release build as .carry/rkc98.xz; logs go to $OUT.
set -u
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc98.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv >$OUT/env.txt 2>&1
T0=$(date +%s)
R=$OUT/regions.log
for p in "layer_norm bf16 37x4194304" "welford bf16 64x1000003" "rms_norm bf16 64x1000003" \
	"dynamic_quant bf16 37x1000003" "layer_norm f32 37x4194304" "welford f32 16x4194304"; do
	set -- $p
	echo "== $p" >>$R
	timeout 60 /tmp/rkc run testdata/kernels/$1.rk --dtype $2 --shape $3 --regions --time --check --copy-gbps 3027 >>$R 2>&1
	echo "regions $p: $(grep -o 'status=[a-z]*' $R | tail -1) ($(($(date +%s) - T0)) s)"
done
L=$OUT/tune.log
for p in "layer_norm bf16 37x4194304" "layer_norm f32 37x4194304" "welford bf16 64x1000003" \
	"welford f32 16x4194304" "rms_norm bf16 64x1000003" "gated_rmsnorm bf16 4x4194304" \
	"scaled_masked_softmax f32 64x4194304" "dynamic_quant bf16 37x1000003" "fused_add_layernorm bf16 37x1000003"; do
	set -- $p
	echo "== $p" >>$L
	timeout 80 /tmp/rkc tune testdata/kernels/$1.rk --dtype $2 --shape $3 --top 10 --no-check --copy-gbps 3027 >>$L 2>&1
	echo "tune $p: $(grep -o 'seed/best [0-9.]*' $L | tail -1) $(grep -o 'best [A-Z][^:]*: [0-9.]* us' $L | tail -1) ($(($(date +%s) - T0)) s)"
done
