#!/bin/sh
# rkc table (what `make run` prints): a row a kernel with the config, both register counts, the
# spills, the modelled time and the mode's reason; --json; the errors. $1 rkc; from the source root.
rkc=$1
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() {
	failed=$((failed + 1))
	printf 'FAIL: %s\n%s\n' "$1" "$out"
}
out=$("$rkc" table testdata/kernels/rms_norm.rk testdata/kernels/cross_entropy.rk 2>&1)
[ $? = 0 ] && printf '%s\n' "$out" | grep -q '^kernel  *shape  *config  *pred  *regs  *spill  *model us  *why this mode$' &&
	printf '%s\n' "$out" | grep -Eq '^rms_norm +2048x4096 +P r[0-9]+ m[0-9]+ w[0-9]+ v8.* +[0-9]+ +[0-9]+ +0 +[0-9.]+  persistent r_block=' &&
	printf '%s\n' "$out" | grep -Eq '^cross_entropy +4096x114688 +L[0-9]+ .* looped r_block=' && ok ||
	fail "table of two kernels"
# every built-in kernel, in the time make run allows
start=$(date +%s)
out=$("$rkc" table 2>&1)
[ $? = 0 ] && [ "$(printf '%s\n' "$out" | grep -c ' r_block=')" = "$(ls testdata/kernels/*.rk | wc -l)" ] &&
	[ $(($(date +%s) - start)) -lt 60 ] && ok || fail "the built-in kernels"
out=$("$rkc" table --json --shape 64x1024 --dtype fp32 --arch sm_80 testdata/kernels/sum.rk 2>&1)
[ $? = 0 ] && printf '%s\n' "$out" | grep -q '^{"config":"[^"]*","error":"","kernel":"sum","mode_reason":"persistent r_block=[^"]*","modelled_us":[0-9.]*,"predicted_regs":[0-9]*,"ptxas_regs":[0-9]*,"shape":"64x1024","spill_bytes":0}$' &&
	ok || fail "--json"
out=$("$rkc" table --dtype f64 2>&1)
[ $? = 2 ] && [ "$out" = "rkc table: error: unsupported dtype 'f64' (expected bf16, fp16 or fp32)" ] && ok || fail "bad dtype"
out=$("$rkc" table nope.rk 2>&1)
[ $? = 1 ] && printf '%s\n' "$out" | grep -q "error: cannot open 'nope.rk'" && ok || fail "a missing kernel"
out=$("$rkc" table --config x testdata/kernels/sum.rk 2>&1)
[ $? = 2 ] && printf '%s\n' "$out" | grep -q "rkc table: error: unknown option '--config'" && ok || fail "unknown option"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
