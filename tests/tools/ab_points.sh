#!/bin/sh
# bench/ab_points.py: the moved picks of two golden files as bench/ab.sh's points, each line one
# that rkc runs. A batch-invariant pick moved to another layout gets both configs forced and no
# --batch-invariant (under it the old layout is refused), and the new one forced compiles to the
# mode's PTX. $1 rkc, $2 a scratch folder; from the source root.
rkc=$1 dir=$2/ab_points
rm -rf "$dir" && mkdir -p "$dir" || exit 1
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() {
	failed=$((failed + 1))
	printf 'FAIL: %s\n%s\n' "$1" "$out"
}
# an old golden file whose rms_norm fp32 65536x32 pick had other threads a row: 4 warps where the
# pick has not 4, else 2 (16 rows a CTA either way), so a later pick does not void the test
moved() { # golden file in, old copy out; prints the old num_warps
	python3 - "$1" "$2" <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))
for p in g["points"]:
    if (p["kernel"], p["dtype"], p["M"], p["N"]) == ("rms_norm", "fp32", 65536, 32):
        p["num_warps"] = 4 if p["num_warps"] != 4 else 2
        p["m_block"], p["min_ctas"], p["persistent"], p["r_block"] = 16, 1, True, 32
        print(p["num_warps"])
json.dump(g, open(sys.argv[2], "w"))
PY
}
w=$(moved testdata/golden/rkc-invariant-sm_90.json "$dir/old-inv.json")
out=$(python3 bench/ab_points.py "$dir/old-inv.json" testdata/golden/rkc-invariant-sm_90.json 2>&1)
line=$(printf '%s\n' "$out" | grep -v '^#')
# shellcheck disable=SC2086 # the line's words
set -- $line
[ "$(printf '%s\n' "$line" | wc -l)" = 1 ] && [ $# = 5 ] && [ "$1 $2 $3" = "rms_norm fp32 65536x32" ] &&
	case "$4" in *num_warps=$w,*) true ;; *) false ;; esac && [ "$5" != "$4" ] &&
	printf '%s\n' "$out" | grep -q '^# 1 sm_90 points moved: the old pick forced, the new pick forced too' &&
	ok || fail "a batch-invariant pick: both configs forced, no --batch-invariant"
old=$4 new=$5
"$rkc" compile testdata/kernels/rms_norm.rk --dtype fp32 --shape 65536x32 --config "$old" \
	-o "$dir/old.ptx" >/dev/null 2>&1 && ok || fail "the old config compiles"
"$rkc" compile testdata/kernels/rms_norm.rk --dtype fp32 --shape 65536x32 --config "$new" \
	-o "$dir/new.ptx" >/dev/null 2>&1 &&
	"$rkc" compile testdata/kernels/rms_norm.rk --dtype fp32 --shape 65536x32 --batch-invariant \
		-o "$dir/mode.ptx" >/dev/null 2>&1 && cmp -s "$dir/new.ptx" "$dir/mode.ptx" && ok ||
	fail "the new config forced is the mode's PTX"
out=$("$rkc" compile testdata/kernels/rms_norm.rk --dtype fp32 --shape 65536x32 --batch-invariant \
	--config "$old" -o "$dir/x.ptx" 2>&1)
[ $? != 0 ] && printf '%s\n' "$out" | grep -q 'batch-invariant' && ok ||
	fail "the old layout under --batch-invariant is refused (why the flag is dropped)"
# the policy's own file: the new side is the pick
w=$(moved testdata/golden/rkc-sm_90.json "$dir/old.json")
out=$(python3 bench/ab_points.py "$dir/old.json" testdata/golden/rkc-sm_90.json 2>&1)
printf '%s\n' "$out" | grep -v '^#' | grep -Eq "^rms_norm fp32 65536x32 [^ ]*num_warps=$w,[^ ]* pick\$" &&
	ok || fail "a policy pick: the new side is pick"
out=$(python3 bench/ab_points.py "$dir/old.json" testdata/golden/rkc-invariant-sm_90.json 2>&1)
[ $? != 0 ] && printf '%s\n' "$out" | grep -q 'batch-invariant mode and the other is not' && ok ||
	fail "files of two modes"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
