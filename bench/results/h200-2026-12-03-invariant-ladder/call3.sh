#!/bin/bash
# call 3: the new invariant orders under compute-sanitizer (memcheck at 7 odd shapes, racecheck and
# synccheck at two), then batch invariance on the GPU (bench/invariance.sh: a row in batches of
# 1, 3, 64 and 4096 rows at four positions, its output bits hashed) at N = 32768 and 151937,
# where the orders cut rows over clusters, splits and cooperating CTAs
set -u
O=${OUT:-out}
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc
san() { # TOOL KERNEL DTYPE SHAPE
	local r
	r=$(timeout 200 compute-sanitizer --tool "$1" --error-exitcode 9 /tmp/rkc run "testdata/kernels/$2.rk" --dtype "$3" --shape "$4" --check --batch-invariant 2>&1)
	echo "rc=$? $1 $2 $3 $4: $(printf '%s\n' "$r" | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tail -1) $(printf '%s\n' "$r" | grep -o 'status=[a-z]*' | sort | uniq -c | tr '\n' ' ')"
	printf '%s\n' "$r" > "$O/san-$1-$2-$3-$4.log"
}
{
for p in "kl_div fp32 3x151937" "layer_norm_backward bf16 5x151937" "sum fp32 5x4194304" "softmax fp32 1x262147" "cross_entropy bf16 7x151937" "rms_norm fp32 3x32771" "welford bf16 2x151937"; do
	san memcheck $p
done
for t in racecheck synccheck; do
	san $t softmax fp32 1x262147
	san $t layer_norm_backward bf16 5x151937
done
} | tee $O/san.txt
tar czf $O/san-logs.tgz $O/san-*.log 2>/dev/null; rm -f $O/san-*.log
OUT=$O/inv NS="32768 151937" KERNELS="rms_norm layer_norm_backward kl_div welford cross_entropy" MODES="--batch-invariant" timeout 330 bash bench/invariance.sh /tmp/rkc > /dev/null 2>&1
cat $O/inv/invariance.txt
tar czf $O/inv-logs.tgz -C $O/inv invariance; rm -rf $O/inv/invariance
