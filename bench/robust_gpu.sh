#!/bin/bash
# Kernels no suite holds, on the GPU: the regression kernels of tests/ and generated ones
# (tests/fuzz/gen.h, written by `sample --write`), each checked against the float64 reference at
# few, tiny, odd and long rows in every dtype, compute-sanitizer memcheck on some; a table last.
#
# usage: bench/robust_gpu.sh RKC GENDIR     RKC: a static rkc; GENDIR: generated .rk files
# env:   OUT  where logs go (default bench/out)
set -u
cd "$(dirname "$0")/.."
RKC=$1
GEN=$2
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
log=$OUT/robust.log
: >"$log"
shapes="--shape 1x1 --shape 3x7 --shape 5x1000 --shape 64x4097 --shape 1000x896 --shape 4x151936 --shape 2x1048576"
kernels="tests/heuristics/kernels/*.rk tests/analysis/plan/*.rk $GEN/*.rk"
for k in $kernels; do
	for dt in bf16 f16 f32; do
		for policy in rkc helion2828; do
			echo "== $k $dt $policy" >>"$log"
			timeout 300 "$RKC" run "$k" $shapes --dtype "$dt" --policy "$policy" --check \
				>>"$log" 2>&1 || echo "EXIT $? $k $dt $policy" >>"$log"
		done
	done
done
san=$OUT/robust-memcheck.log
: >"$san"
for k in tests/heuristics/kernels/*.rk tests/analysis/plan/*.rk $(ls $GEN/*.rk | head -6); do
	echo "== $k" >>"$san"
	timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 "$RKC" run "$k" \
		--shape 3x7 --shape 5x1000 --shape 64x4097 --dtype bf16 --check >>"$san" 2>&1 ||
		echo "EXIT $? $k" >>"$san"
done
echo "checks: $(grep -c 'RESULT.*status=ok' "$log") ok, $(grep -c 'RESULT.*status=FAIL' "$log") failed," \
	"$(grep -c 'RESULT.*status=ERROR' "$log") errors, $(grep -c '^EXIT' "$log") processes exited non-zero"
echo "memcheck: $(grep -c '^== ' "$san") kernels, $(grep -c 'ERROR SUMMARY: 0 errors' "$san") clean runs," \
	"$(grep -c '^EXIT' "$san") exited non-zero"
grep 'status=FAIL\|status=ERROR\|^EXIT' "$log" "$san" | head -40
