#!/bin/bash
# Call 2: where the sech^2 rewrite ran slower (bias_gelu_back bf16, persistent grids whose pick
# spills at ptxas's 128-register cap): old PTX against the new pick at 6 points, the new pick
# against forced alternatives at 6; torch.compile on bias_gelu_back, gelu_back and tanh_back
# (the last two never in a table) at 7 shapes each, bf16 and fp32; memcheck on tanh_back.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
LIMIT=200 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s58/ab2-all.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"; rm -rf "$OUT/ab"
for a in "tanh_back bf16 11x65537" "tanh_back f32 1x1" "tanh_back f16 3x1000003" "gelu_back f16 7x77"; do
	set -- $a
	timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $R run .carry/s58/kernels/$1.rk --dtype $2 --shape $3 --check >/tmp/san.txt 2>&1
	echo "memcheck $a: exit $? $(grep -c 'ERROR SUMMARY: 0 errors' /tmp/san.txt) clean-summary, $(grep -o 'status=[a-z]*' /tmp/san.txt | head -1)"
done >"$OUT/sanitize.txt" 2>&1
W=/tmp/tcw; rm -rf $W; mkdir -p $W
export TORCHINDUCTOR_CACHE_DIR="$W/ind" TRITON_CACHE_DIR="$W/tri"
for d in bf16 f32; do
	timeout 230 python3 bench/torch_compare.py --rkc $R --heldout .carry/s58/held --kernels bias_gelu_back,gelu_back,tanh_back --dtype $d --shapes-per-kernel 7 --copy-gbps 4274 --workdir $W/ptx-$d --csv "$OUT/tc_$d.csv" >"$OUT/tc_$d.txt" 2>&1
	echo "tc $d: exit $?"
done
cut -c1-150 "$OUT/ab-table.txt" | head -20
cat "$OUT/sanitize.txt"
for d in bf16 f32; do tail -25 "$OUT/tc_$d.txt" | grep -v "^heldout,\|^$" | cut -c1-135; done
