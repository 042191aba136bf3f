#!/bin/sh
# docs/manifest.md's C example against the stand-in driver: it launches what rkc compiled with the
# grid, block, shared memory, cluster and arguments the manifest gives, at the compiled M and at
# another. $1 rkc, $2 the example, $3 a scratch directory; run from the source root.
rkc=$1 ex=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir" || exit 1
export RKC_FAKECUDA_LOG="$dir/launches"
passed=0 failed=0
fail() {
	failed=$((failed + 1))
	printf 'FAIL: %s\n' "$1"
}
# CHECK NAME WANT: the last launch line is WANT
check() {
	got=$(tail -n 1 "$RKC_FAKECUDA_LOG" 2>/dev/null)
	if [ "$got" = "$2" ]; then passed=$((passed + 1)); else fail "$1: launched '$got', want '$2'"; fi
}

# rms_norm: x w y rstd eps M N x.stride y.stride (dense rows: N); pointers vary, so compare after
# masking the first four
"$rkc" compile testdata/kernels/rms_norm.rk --shape 64x4096 --dtype bf16 --config m_block=2 -o "$dir/r.ptx" || fail "compile rms_norm"
"$ex" "$dir/r.ptx" "$dir/r.json" >"$dir/out" || fail "the example on rms_norm"
grep -q "launched rms_norm: M=64 grid 32 block" "$dir/out" || fail "rms_norm: $(cat "$dir/out")"
sed -i 's/args=[0-9]*,[0-9]*,[0-9]*,[0-9]*,/args=P,P,P,P,/' "$RKC_FAKECUDA_LOG"
block=$(sed -n 's/.*"block": {"x": \([0-9]*\).*/\1/p' "$dir/r.json")
check "rms_norm at its M" "launch rms_norm grid=32,1,1 block=$block,1,1 smem=0 cluster=1 args=P,P,P,P,9.99999997e-07,64,4096,4096,4096"
# another M: the grid follows the formula
"$ex" "$dir/r.ptx" "$dir/r.json" 7 >/dev/null || fail "the example at M=7"
sed -i 's/args=[0-9]*,[0-9]*,[0-9]*,[0-9]*,/args=P,P,P,P,/' "$RKC_FAKECUDA_LOG"
check "rms_norm at M=7" "launch rms_norm grid=4,1,1 block=$block,1,1 smem=0 cluster=1 args=P,P,P,P,9.99999997e-07,7,4096,4096,4096"

# split rows: the workspace is the last argument; the grid is M*split
"$rkc" compile testdata/kernels/long_sum.rk --shape 3x1048576 --dtype f32 --config persistent=0,r_block=8192,num_warps=8,vec=4,split=16 -o "$dir/s.ptx" || fail "compile long_sum"
"$ex" "$dir/s.ptx" "$dir/s.json" 5 >/dev/null || fail "the example on long_sum"
sed -i '$ s/args=[0-9]*,[0-9]*,/args=P,P,/; $ s/,[0-9]*$/,P/' "$RKC_FAKECUDA_LOG"
check "long_sum split" "launch long_sum grid=80,1,1 block=256,1,1 smem=0 cluster=1 args=P,P,5,1048576,1048576,P"

# a persistent grid from a work counter: the grid capped at 8 CTAs, a 16-byte workspace last
"$rkc" compile testdata/kernels/rms_norm.rk --shape 64x4096 --dtype bf16 --config grid=8,dynamic=1 -o "$dir/g.ptx" || fail "compile rms_norm grid=8"
"$ex" "$dir/g.ptx" "$dir/g.json" 5 >/dev/null || fail "the example on a capped grid"
grep -q '"cap": 8' "$dir/g.json" && tail -n 1 "$RKC_FAKECUDA_LOG" | grep -q "^launch rms_norm grid=5,1,1 .*,5,4096,4096,4096,[0-9]*$" &&
	passed=$((passed + 1)) || fail "capped grid at M=5: $(tail -n 1 "$RKC_FAKECUDA_LOG")"
"$ex" "$dir/g.ptx" "$dir/g.json" >/dev/null || fail "the example on a capped grid"
tail -n 1 "$RKC_FAKECUDA_LOG" | grep -q "^launch rms_norm grid=8,1,1 .*,64,4096,4096,4096,[0-9]*$" &&
	passed=$((passed + 1)) || fail "capped grid at M=64: $(tail -n 1 "$RKC_FAKECUDA_LOG")"

# a row over a cluster of 4 CTAs, sm_90
"$rkc" compile testdata/kernels/softmax.rk --shape 4x262144 --dtype bf16 --config cluster=4,persistent=1,r_block=65536 -o "$dir/c.ptx" || fail "compile softmax cluster"
"$ex" "$dir/c.ptx" "$dir/c.json" >/dev/null || fail "the example on softmax"
grep -q "grid=16,1,1 .* cluster=4 " "$RKC_FAKECUDA_LOG" || fail "softmax cluster: $(tail -n 1 "$RKC_FAKECUDA_LOG")"
[ "$failed" = 0 ] && passed=$((passed + 1))

# a row over 5 cooperating CTAs (coop=1, sm_80): a cooperative launch, the workspace last; the
# stand-in device holds 64 CTAs at once, so 13 rows (65 CTAs) are refused
"$rkc" compile testdata/kernels/layer_norm.rk --shape 3x50257 --dtype f32 --arch sm_80 --config persistent=0,r_block=2048,num_warps=4,vec=4,cluster=5,coop=1 -o "$dir/x.ptx" || fail "compile layer_norm coop"
"$ex" "$dir/x.ptx" "$dir/x.json" >/dev/null || fail "the example on layer_norm coop"
tail -n 1 "$RKC_FAKECUDA_LOG" | grep -q "^launch layer_norm grid=15,1,1 block=128,1,1 smem=0 cluster=1 cooperative args=.*,3,50257,50257,50257,[0-9]*$" &&
	passed=$((passed + 1)) || fail "layer_norm coop: $(tail -n 1 "$RKC_FAKECUDA_LOG")"
"$ex" "$dir/x.ptx" "$dir/x.json" 13 >/dev/null 2>"$dir/err" && fail "65 cooperative CTAs launched"
grep -q "COOPERATIVE_LAUNCH_TOO_LARGE\|720" "$dir/err" && passed=$((passed + 1)) || fail "coop too large: $(cat "$dir/err")"

# a version 1 manifest is refused by the example, which reads version 3
"$ex" "$dir/r.ptx" tests/runtime/data/rms_norm.manifest.json 2>"$dir/err" && fail "v1 accepted"
grep -q "not a version 3 manifest" "$dir/err" && passed=$((passed + 1)) || fail "v1: $(cat "$dir/err")"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
