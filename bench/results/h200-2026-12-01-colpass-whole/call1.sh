#!/bin/bash
# Call 1 of 2026-12-01 (colpass-whole): the kernels made whole in the column pass, checked
# against float64 at odd shapes (robust_gpu.sh), under the sanitizers (sanitize_new.sh's new
# lines and the column pass's), and timed against torch.compile at the held-out shapes and four
# more (64x50257, 3x151936, 32x65536, 512x8192). Run from the repository root on the GPU host.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$OUT/env.txt"
$R --version >>"$OUT/env.txt"
SHAPES="1x1 3x7 5x1000 37x4099 64x50257 3x151936 8x1000003 4096x4096 65536x64" \
	KERNELS="bench/heldout/bias_gelu_back.rk bench/heldout/bias_grad.rk tests/codegen/colpass_whole.rk tests/heuristics/kernels/colsum_only.rk" \
	DTYPES="bf16 f16 f32" POLICIES=rkc PAD=16 JOBS=12 MEMCHECK=0 OUT="$OUT/rb" \
	bash bench/robust_gpu.sh $R none >"$OUT/robust-summary.txt" 2>&1
OUT="$OUT/san" bash bench/sanitize_new.sh $R "colpass_whole|bias_gelu_back|bias_grad|colpass=1" \
	>"$OUT/sanitize.txt" 2>&1
for dt in bf16 f32; do
	python3 bench/torch_compare.py --rkc $R --heldout .carry/s54/heldout \
		--kernels bias_gelu_back,bias_grad --dtype $dt --shapes-per-kernel 11 \
		--copy-gbps 4274 --workdir /tmp/tcw --csv "$OUT/tc_$dt.csv" >"$OUT/tc_$dt.txt" 2>&1
done
tar czf "$OUT/logs.tgz" -C "$OUT" rb san && rm -rf "$OUT/rb" "$OUT/san"
tail -5 "$OUT/robust-summary.txt"; tail -3 "$OUT/sanitize.txt"
for dt in bf16 f32; do tail -30 "$OUT/tc_$dt.txt"; done
