#!/bin/bash
# Call 4, the final build: the rewrite build's pick (its PTX) against the final pick at the 6
# points call 3 did not time or could not launch (a cooperative grid of 396 now sized at 264);
# the kernels the rewrite and the tie touch, checked against float64 at few, tiny, odd and long
# rows, bf16, fp16 and fp32, rows padded by 16, memcheck on each.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
LIMIT=120 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s58/ab4-points.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"; rm -rf "$OUT/ab"
mkdir -p /tmp/nogen
SHAPES="1x1 3x7 5x1000 64x4097 4x151936 2x1048576 65536x64 4099x3001 8192x2048 13x40009" \
DTYPES="bf16 f16 f32" POLICIES=rkc PAD=16 JOBS=6 MEMCHECK=6 \
KERNELS="tests/heuristics/kernels/bias_gelu_back.rk tests/heuristics/kernels/bias_gelu_erf_back.rk .carry/s58/kernels/gelu_back.rk .carry/s58/kernels/tanh_back.rk tests/codegen/tanh_rewrite.rk tests/heuristics/kernels/bias_silu_back.rk" \
OUT="$OUT/rb" timeout 300 bash bench/robust_gpu.sh $R /tmp/nogen >"$OUT/robust-run.txt" 2>&1
echo "robust: exit $?"
gzip -c "$OUT/rb/robust.log" >"$OUT/robust.log.gz" 2>/dev/null; rm -rf "$OUT/rb/robust"
cut -c1-150 "$OUT/ab-table.txt" | head -12
tail -30 "$OUT/robust-run.txt"
