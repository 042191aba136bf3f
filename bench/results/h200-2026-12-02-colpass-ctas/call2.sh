#!/bin/bash
# Call 2: settle_colpass_ctas measured: the old build's pick (its PTX) against the new build's
# at 19 points the rule moves (bias_gelu_back at fresh shapes; two kernels never measured:
# bias_silu_back and drop_back), memcheck/racecheck on the new picks of the new kernels, and
# bias_gelu_back against torch.compile at four fresh shapes.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
LIMIT=260 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s57/ab2-points.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"; rm -rf "$OUT/ab"
for a in "bias_silu_back bf16 11x65537" "drop_back f32 13x40009"; do
	set -- $a
	for tool in memcheck racecheck; do
		timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $R run .carry/s57/k/$1.rk --dtype $2 --shape $3 --check >/tmp/san.txt 2>&1
		echo "$tool $a: exit $? $(grep -c 'ERROR SUMMARY: 0 errors' /tmp/san.txt) clean-summary, $(grep -o 'status=[a-z]*' /tmp/san.txt | head -1)"
	done
done >"$OUT/sanitize.txt" 2>&1
W=/tmp/tcw; rm -rf $W; mkdir -p $W
export TORCHINDUCTOR_CACHE_DIR="$W/ind" TRITON_CACHE_DIR="$W/tri"
for d in bf16 f32; do
	timeout 150 python3 bench/torch_compare.py --rkc $R --heldout .carry/s57/held --kernels bias_gelu_back --dtype $d --shapes-per-kernel 4 --copy-gbps 4274 --workdir $W/ptx-$d --csv "$OUT/tc_$d.csv" >"$OUT/tc_$d.txt" 2>&1
	echo "tc $d: exit $?"
done
cut -c1-150 "$OUT/ab-table.txt" | head -30; tail -3 "$OUT/ab-table.txt" | cut -c1-200
cat "$OUT/sanitize.txt"
for d in bf16 f32; do tail -8 "$OUT/tc_$d.txt" | cut -c1-140; done
