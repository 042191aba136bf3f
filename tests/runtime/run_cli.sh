#!/bin/sh
# rkc run where there is no GPU: every failure is a clear message and a status, never a crash.
# $1 is the rkc binary; run from the source root.
rkc=$1
k=testdata/kernels/rms_norm.rk
man=tests/runtime/data/rms_norm.manifest.json
passed=0 failed=0

expect() { # STATUS TEXT ARGS...: rkc exits STATUS and says TEXT
	want=$1 text=$2
	shift 2
	out=$("$rkc" "$@" 2>&1)
	got=$?
	if [ "$got" = "$want" ] && printf '%s\n' "$out" | grep -qF -- "$text"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		printf 'FAIL: rkc %s\n  status %s (want %s), want "%s" in:\n%s\n' "$*" "$got" "$want" "$text" "$out"
	fi
}

export RKC_LIBCUDA=/nonexistent/libcuda.so.1
expect 1 "error: no CUDA driver: /nonexistent/libcuda.so.1" run $k --shape 64x128 --dtype bf16
expect 1 "no CUDA driver" run $k --dtype bf16 --ptx $man --manifest $man --check
RKC_LIBCUDA=libm.so.6 expect 1 "has no cuGetProcAddress_v2" run $k --shape 64x128 --dtype f32
expect 2 "unsupported dtype 'f64' (expected bf16, fp16 or fp32)" run $k --shape 64x128 --dtype f64
expect 2 "bad shape '64x'" run $k --shape 64x --dtype bf16
expect 2 "bad shape '0x128'" run $k --shape 0x128 --dtype bf16
expect 2 "usage: rkc run" run $k --dtype bf16
expect 2 "--ptx and --manifest go together" run $k --shape 64x128 --dtype bf16 --ptx $man
expect 2 "unknown option '--fast'" run $k --shape 64x128 --dtype bf16 --fast
expect 2 "unknown policy 'best'" run $k --shape 64x128 --dtype bf16 --policy best
expect 1 "cannot open 'testdata/nope.json'" run $k --shape 64x128 --dtype bf16 --inputs testdata/nope.json
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
