#!/bin/bash
# Call 1: the sech^2 rewrite (analysis/rewrite.c) measured: the old build's PTX against the new
# build's at 38 points (bias_gelu_back at the held-out and fresh shapes, gelu_back never run
# before), bf16 and fp32; memcheck on two new picks; bias_gelu_back against torch.compile at 13
# shapes.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv > "$OUT/env.txt" 2>&1
LIMIT=300 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s58/ab1-points.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"; rm -rf "$OUT/ab"
for a in "bench/heldout/bias_gelu_back.rk bf16 11x65537" "bench/heldout/bias_gelu_back.rk f32 5x300007" ".carry/s58/kernels/gelu_back.rk bf16 37x3001" ".carry/s58/kernels/gelu_back.rk f32 1x1"; do
	set -- $a
	timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $R run $1 --dtype $2 --shape $3 --check >/tmp/san.txt 2>&1
	echo "memcheck $a: exit $? $(grep -c 'ERROR SUMMARY: 0 errors' /tmp/san.txt) clean-summary, $(grep -o 'status=[a-z]*' /tmp/san.txt | head -1)"
done >"$OUT/sanitize.txt" 2>&1
W=/tmp/tcw; rm -rf $W; mkdir -p $W
export TORCHINDUCTOR_CACHE_DIR="$W/ind" TRITON_CACHE_DIR="$W/tri"
for d in bf16 f32; do
	timeout 170 python3 bench/torch_compare.py --rkc $R --heldout .carry/s58/held --kernels bias_gelu_back --dtype $d --shapes-per-kernel 13 --copy-gbps 4274 --workdir $W/ptx-$d --csv "$OUT/tc_$d.csv" >"$OUT/tc_$d.txt" 2>&1
	echo "tc $d: exit $?"
done
cut -c1-150 "$OUT/ab-table.txt" | head -45; tail -3 "$OUT/ab-table.txt" | cut -c1-200
cat "$OUT/sanitize.txt"
for d in bf16 f32; do tail -17 "$OUT/tc_$d.txt" | cut -c1-140; done
