#!/bin/bash
# Call 3: the ahead tie for heavy math (AHEAD_MATH_OPS): the rewrite build's pick (its PTX)
# against the new build's at the 33 points it moves (bias_gelu_back and bias_gelu_erf_back, never
# run before, bf16 and fp16; layer_norm_backward batch-invariant), and the new pick (the ring
# where settle_ring takes it) against the register ahead at 6; sanitizers on the ring picks;
# torch.compile on bias_gelu_back and bias_gelu_erf_back at 7 shapes each.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
LIMIT=330 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s58/ab3-all.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"; rm -rf "$OUT/ab"
for a in "bench/heldout/bias_gelu_back.rk bf16 4099x3001" ".carry/s58/kernels/bias_gelu_erf_back.rk f16 8191x2047" ".carry/s58/kernels/bias_gelu_erf_back.rk bf16 16385x1024"; do
	set -- $a
	for tool in memcheck racecheck; do
		timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $R run $1 --dtype $2 --shape $3 --check >/tmp/san.txt 2>&1
		echo "$tool $a: exit $? $(grep -c 'ERROR SUMMARY: 0 ' /tmp/san.txt) clean-summary, $(grep -o 'status=[a-z]*' /tmp/san.txt | head -1), $(grep -o 'config [^,]*' /tmp/san.txt | head -1)"
	done
done >"$OUT/sanitize.txt" 2>&1
W=/tmp/tcw; rm -rf $W; mkdir -p $W
export TORCHINDUCTOR_CACHE_DIR="$W/ind" TRITON_CACHE_DIR="$W/tri"
for d in bf16 f32; do
	timeout 150 python3 bench/torch_compare.py --rkc $R --heldout .carry/s58/held --kernels bias_gelu_back,bias_gelu_erf_back --dtype $d --shapes-per-kernel 7 --copy-gbps 4274 --workdir $W/ptx-$d --csv "$OUT/tc_$d.csv" >"$OUT/tc_$d.txt" 2>&1
	echo "tc $d: exit $?"
done
cut -c1-150 "$OUT/ab-table.txt" | head -45
cat "$OUT/sanitize.txt"
for d in bf16 f32; do tail -18 "$OUT/tc_$d.txt" | grep -v "^heldout,\|^$" | cut -c1-135; done
