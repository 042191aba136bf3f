#!/bin/bash
# Call 6 (tune's cand p): rkc tune on the GPU where the column pass makes the whole kernel, the
# seed beside that pass at 2 and 4 CTAs an SM of 8 warps (cand p), at two points of calls 4-5 and
# three shapes not measured before; compute-sanitizer memcheck and racecheck on cand p's configs
# at an odd shape (the build with tools/tune.c's colpass_variant).
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
for p in "bench/heldout/bias_gelu_back.rk bf16 64x50257" "bench/heldout/bias_gelu_back.rk f32 24x77777" \
	"bench/heldout/bias_gelu_back.rk bf16 48x40009" "bench/heldout/bias_gelu_back.rk f32 300x30011" \
	"tests/codegen/colpass_whole.rk bf16 256x28673"; do
	set -- $p
	timeout 60 $R tune $1 --dtype $2 --shape $3 --top 2 --copy-gbps 4274 >"$OUT/tune-$(basename $1 .rk)-$2-$3.txt" 2>&1
	echo "exit $?" >>"$OUT/tune-$(basename $1 .rk)-$2-$3.txt"
done
for c in "num_warps=8,min_ctas=4,grid=528" "num_warps=8,min_ctas=2,grid=264"; do
	for tool in memcheck racecheck; do
		timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $R run bench/heldout/bias_gelu_back.rk \
			--shape 11x65537 --dtype bf16 --config $c --check
		echo "EXIT $tool $c: $?"
	done
done >"$OUT/sanitize.txt" 2>&1
tar czf "$OUT/tune.tgz" -C "$OUT" $(cd "$OUT" && ls tune-*.txt) && cat "$OUT"/tune-*.txt | grep -E "^ +[0-9]+ |^seed|exit" | cut -c1-150
grep -E "EXIT|ERROR SUMMARY|RACECHECK SUMMARY|RESULT" "$OUT/sanitize.txt" | cut -c1-160
