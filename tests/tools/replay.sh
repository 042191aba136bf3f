#!/bin/sh
# bench/replay.py: the policy's picks looked up among timings on record. The short form it reads
# against rkc's own, over a golden file; a record of two points (a tune table, an ab.sh table),
# another device's record left out, and a base build equal to the build. $1 rkc, $2 a scratch
# folder; from the source root.
rkc=$1 dir=$2/replay
rm -rf "$dir" && mkdir -p "$dir" || exit 1
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() {
	failed=$((failed + 1))
	printf 'FAIL: %s\n%s\n' "$1" "$out"
}
out=$(python3 bench/replay.py --rkc "$rkc" --check-format testdata/golden/rkc-sm_90.json 2>&1)
[ $? = 0 ] && printf '%s\n' "$out" | grep -q ', 0 wrong$' && ok || fail "the short form"

# the picks now, so that the record holds them whatever the policy picks
sum=$("$rkc" explain testdata/kernels/sum.rk --shape 4096x4096 --dtype bf16 --json |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["config_short"])')
ln=$("$rkc" explain testdata/kernels/layer_norm.rk --shape 2048x4096 --dtype fp32 --json |
	python3 -c 'import json, sys; d = json.load(sys.stdin); print(json.dumps({k: d[k] for k in ("persistent", "r_block", "m_block", "num_warps", "vec", "split", "evict", "min_ctas", "smem", "cluster", "grid", "dynamic", "ahead", "coop", "stash", "steps", "colpass")}))')
other=$(printf '%s\n' "$sum" | grep -q '^L1024 m1 w4 v8$' && echo 'L2048 m1 w4 v8' || echo 'L1024 m1 w4 v8')
mkdir -p "$dir/r/h200-2026-12-01-a" "$dir/r/h100-2026-12-01-b" || exit 1
cat > "$dir/r/h200-2026-12-01-a/tune.txt" <<T
device: NVIDIA H200, sm_90, 132 SMs, 60 MiB L2, driver CUDA 13.0
sum bf16 4096x4096: 2 candidates: the rkc policy's first 2 by its ranking
rank  cand  config                          model_us         us   %copy  regs  local  status
   1     2  $other                          20.00       8.00   90.0%    30      0  ok
   2     1  $sum                          20.00      10.00   80.0%    30      0  ok        <- seed (rkc)
TUNE kernel=sum dtype=bf16 M=4096 N=4096 seed_us=10.00 best_us=8.00
T
old=$(printf '%s\n' "$ln" | sed 's/"num_warps": [0-9]*/"num_warps": 3/')
printf 'layer_norm fp32 2048x4096 12.00 6.00 0.500 %s -> %s\n' "$old" "$ln" > "$dir/r/h200-2026-12-01-a/ab-table.txt"
# another device's record of the same point: not the H200's
sed 's/ 8.00 / 1.00 /' "$dir/r/h200-2026-12-01-a/tune.txt" > "$dir/r/h100-2026-12-01-b/tune.txt"
out=$(python3 bench/replay.py --rkc "$rkc" --results "$dir/r" --since 2026-01-01 2>&1)
[ $? = 0 ] && printf '%s\n' "$out" | grep -q '^build: 2 points timed before; the pick among the configs timed at 2 (100%); pick/best 1.118 by geomean, within 5% of the best at 1 of 2$' &&
	printf '%s\n' "$out" | grep -Eq '^  sum bf16 4096x4096 .* 10.00 us  1.250x the best \(8.00\)$' && ok ||
	fail "a tune table and an ab.sh table"
out=$(python3 bench/replay.py --rkc "$rkc" --base "$rkc" --results "$dir/r" --since 2026-01-01 2>&1)
[ $? = 0 ] && printf '%s\n' "$out" | grep -q '^moved: 0 picks; 0 with both configs timed' && ok ||
	fail "a base build equal to the build"
out=$(python3 bench/replay.py --rkc "$rkc" --results "$dir/r" --since 2027-01-01 2>&1)
[ $? != 0 ] && printf '%s\n' "$out" | grep -q 'no timings' && ok || fail "no record since the date"
echo "replay: $passed passed, $failed failed"
[ "$failed" = 0 ]
