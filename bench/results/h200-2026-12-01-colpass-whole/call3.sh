#!/bin/bash
# Call 3 (and 4, its rerun) of 2026-12-01 (colpass-whole), the final build: old picks (PTX of e95aee9's build,
# compiled off the GPU, .carry/s54/old) against the new picks at the 42 points whose pick moved
# (bench/ab.sh: old, new, new, old); the new picks checked against float64 at odd shapes and
# under the sanitizers; and against torch.compile at the held-out shapes and four more.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
$R --version >"$OUT/env.txt"
SHAPES="1x1 3x7 5x1000 37x4099 64x50257 3x151936 8x1000003 65536x64" \
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
LIMIT=300 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s54/${POINTS:-points.txt} >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"
tar czf "$OUT/logs.tgz" -C "$OUT" rb san && rm -rf "$OUT/rb" "$OUT/san" "$OUT/ab"
tail -3 "$OUT/robust-summary.txt"; tail -3 "$OUT/sanitize.txt"
for dt in bf16 f32; do tail -26 "$OUT/tc_$dt.txt" | cut -c1-120; done
tail -60 "$OUT/ab-table.txt"
