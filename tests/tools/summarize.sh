#!/bin/sh
# bench/summarize.py's tables from run logs laid out as bench/gpu_run.sh writes them: a point checked
# ok, one that failed its check, one timed and not checked (CHECK=0), one neither (a --regions run:
# unchecked, no time), at 64 MB and under; the %copy columns count the first and the third.
# $1 rkc (unused), $2 a scratch folder; from the source root.
dir=$2/summarize
rm -rf "$dir" && mkdir -p "$dir/run" || exit 1
fail() { printf 'FAIL: %s\n' "$1"; exit 1; }
res() { # kernel dtype M N status us copy_pct mbytes
	echo "RESULT kernel=$1 dtype=$2 M=$3 N=$4 status=$5 worst_rel_l2=1.000e-03 us=$6 gbps=1.0 copy_pct=$7 mbytes=$8 regs=30 local=0 config={}"
}
{ res sum bf16 4096 8192 ok 30.0 80.0 64.0; res sum bf16 64 8192 FAIL 2.0 10.0 1.0; } >"$dir/run/core.sum.bf16.log"
{ res sum bf16 8192 8192 unchecked 50.0 90.0 128.0; res sum bf16 16 8192 unchecked 0.00 0.0 0.3; } >"$dir/run/transfer.sum.bf16.log"
res softmax f32 1024 4096 ok 20.0 100.0 32.0 >"$dir/run/core.softmax.f32.log"
python3 bench/summarize.py "$dir" >"$dir/out.txt" || fail "summarize.py: exit $?"
diff -u tests/tools/summarize.txt "$dir/out.txt" || fail "summarize.py's tables"
[ -f "$dir/points.csv" ] && [ "$(wc -l <"$dir/points.csv")" = 6 ] || fail "points.csv: a header and 5 points"
echo ok
