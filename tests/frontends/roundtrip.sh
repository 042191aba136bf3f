#!/bin/sh
# Each of the 22 kernels, and the three of tests/codegen for col, tanh, erf, pow, both fp8 types
# and colsum:
# print -> parse -> print is identical text, the JSON form round-trips to identical JSON, and the
# JSON form prints back to the same .rk text.
rkc=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for f in testdata/kernels/*.rk tests/codegen/training_ops.rk tests/codegen/col_pick.rk \
	tests/codegen/colsum_exp.rk; do
	n=$((n + 1))
	k=$(basename "$f" .rk)
	ok=1
	"$rkc" check "$f" >"$tmp/$k.1.rk" || ok=0
	"$rkc" check "$tmp/$k.1.rk" >"$tmp/$k.2.rk" || ok=0
	cmp -s "$tmp/$k.1.rk" "$tmp/$k.2.rk" || ok=0
	"$rkc" print --json "$f" >"$tmp/$k.1.json" || ok=0
	"$rkc" print --json "$tmp/$k.1.json" >"$tmp/$k.2.json" || ok=0
	cmp -s "$tmp/$k.1.json" "$tmp/$k.2.json" || ok=0
	"$rkc" print - <"$tmp/$k.1.json" >"$tmp/$k.3.rk" || ok=0
	cmp -s "$tmp/$k.1.rk" "$tmp/$k.3.rk" || ok=0
	[ $ok -eq 1 ] || { echo "FAIL $k"; fail=$((fail + 1)); }
done
[ $n -eq 25 ] || { echo "FAIL: expected 22 kernels and 3 more, found $n"; fail=$((fail + 1)); }
echo "$((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]
