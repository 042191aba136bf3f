#!/bin/sh
# rkc golden diff on files that are not golden files, or barely: an exact message and exit 1; and a
# kernel name too long for a fixed buffer.
rkc=$1
t=$(mktemp -d "$2/golden_diff.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}
good=testdata/golden/rkc-sm_90.json

# bad FILE MESSAGE: diffing FILE against a good file, either way round, exits 1 with MESSAGE.
bad() {
	for pair in "$t/$1 $good" "$good $t/$1"; do
		# shellcheck disable=SC2086 # two file names
		"$rkc" golden diff $pair >"$t/out" 2>"$t/err"
		rc=$?
		[ $rc -eq 1 ] || fail "golden diff $pair: exit $rc: $(cat "$t/err")"
		[ "$(cat "$t/err")" = "rkc golden: error: $2" ] ||
			fail "golden diff $pair: want 'rkc golden: error: $2', got '$(cat "$t/err")'"
	done
}
echo '{"points":[1,2,"x",null]}' >"$t/scalars.json"
bad scalars.json "$t/scalars.json: points[0]: expected an object"
echo '{"a":1}' >"$t/other.json"
bad other.json "$t/other.json: not a golden file (no \"points\" array)"
echo '{"points":[{"dtype":"bf16","M":8,"N":8}]}' >"$t/nokernel.json"
bad nokernel.json "$t/nokernel.json: points[0]: expected strings kernel and dtype"
point='"kernel":"sum","dtype":"bf16","M":8,"N":4096,"persistent":true,"r_block":4096,"m_block":1,"num_warps":4,"vec":8,"split":1,"evict":0,"min_ctas":1'
echo "{\"points\":[{$point,\"modelled_us\":2.5},{$point}]}" >"$t/nous.json"
bad nous.json "$t/nous.json: points[1]: expected a positive number modelled_us"
printf '{"points":\n  [}\n' >"$t/syntax.json"
bad syntax.json "$t/syntax.json:2:4: unexpected token near '}'"
bad missing.json "unable to open $t/missing.json: No such file or directory"

# A kernel name of 100 characters: one group, one unchanged point.
name=$(printf 'k%099d' 0)
echo "{\"points\":[{${point#*,},\"kernel\":\"$name\",\"modelled_us\":2.5}]}" >"$t/long.json"
"$rkc" golden diff "$t/long.json" "$t/long.json" >"$t/out" 2>"$t/err" ||
	fail "long kernel name: exit $?: $(cat "$t/err")"
grep -q "^## $name bf16: 0 of 1 changed, modelled speedup geomean 1.000x" "$t/out" ||
	fail "long kernel name: $(cat "$t/out")"
grep -q '^| 8x4096 | P r4096 ' "$t/out" || fail "long kernel name, shape row: $(cat "$t/out")"
echo ok
