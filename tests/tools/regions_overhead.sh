#!/bin/sh
# bench/regions_overhead.py's table from logs laid out as bench/regions_overhead.sh writes them
# (a shape with no plain times, a stamped run that failed its check, a kernel skipped for time), and
# bench/suite_shapes.py's two listings: --largest is the largest of the shapes within the bounds.
# $1 rkc, $2 a scratch folder; from the source root.
rkc=$1 dir=$2/regions_overhead
rm -rf "$dir" && mkdir -p "$dir" || exit 1
fail() { printf 'FAIL: %s\n' "$1"; exit 1; }
printf 'sum 4096x18432 151\nsum 64x4194304 537\nsoftmax 2048x40960 336\n' >"$dir/plan.txt"
echo welford >"$dir/skipped.txt"
res() { # kernel M N status us plain_before plain_after every [the other stamping's fields]
	echo "RESULT kernel=$1 dtype=bf16 M=$2 N=$3 status=$4 worst_rel_l2=0.000e+00 us=$5 gbps=1.0 copy_pct=95.0 mbytes=1.0 regs=30 local=0 config={}"
	echo "REGIONS kernel=$1 dtype=bf16 M=$2 N=$3 kernel_us=$5 span_us=1.00 every=$8 floor_us=3.00 plain_us=$6 plain_after_us=$7${9:+ $9}"
}
# sum 4096x18432: every block kept, the rule's 1 in 16 cost +12.5% (45/40 - 1)
{ res sum 4096 18432 ok 38.69 36.50 36.70 1 "other_every=16 other_us=45.00 other_plain_us=40.00 other_plain_after_us=40.00"; res sum 64 4194304 FAIL 121.50 120.00 121.00 16; } >"$dir/sum.log"
# softmax: a RESULT with no plain times (the run failed before them)
echo "RESULT kernel=softmax dtype=bf16 M=2048 N=40960 status=ok worst_rel_l2=0.000e+00 us=100.0 gbps=1.0 copy_pct=95.0 mbytes=1.0 regs=30 local=0 config={}" >"$dir/softmax.log"
python3 bench/regions_overhead.py "$dir" >"$dir/out.txt" || fail "regions_overhead.py: exit $?"
diff -u tests/tools/regions_overhead.txt "$dir/out.txt" || fail "regions_overhead.py's table"
k=$(basename -s .rk testdata/kernels/*.rk)
python3 bench/suite_shapes.py "$rkc" bf16 "core transfer" "$k" 64 1500 >"$dir/all.txt" &&
	python3 bench/suite_shapes.py "$rkc" bf16 "core transfer" "$k" 64 1500 --largest >"$dir/largest.txt" ||
	fail "suite_shapes.py"
python3 - "$dir/all.txt" "$dir/largest.txt" <<'PY' || fail "suite_shapes.py: --largest is not each kernel's largest"
import sys
rows = [l.split() for l in open(sys.argv[1])]
big = {}
for k, s, mb in rows:
    assert 64 <= int(mb) <= 1500, (k, s, mb)
    big[k] = max(big.get(k, 0), int(mb))
top = {l.split()[0]: int(l.split()[2]) for l in open(sys.argv[2])}
assert all(top[k] == v for k, v in big.items()), (big, top)
PY
echo ok
