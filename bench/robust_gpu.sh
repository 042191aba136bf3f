#!/bin/bash
# Kernels no suite holds, on the GPU: the regression kernels of tests/ and generated ones
# (tests/fuzz/gen.h, written by `sample --write`), each checked against the float64 reference at
# few, tiny, odd and long rows in every dtype, compute-sanitizer memcheck on some; a table last.
#
# usage: bench/robust_gpu.sh RKC GENDIR     RKC: a static rkc; GENDIR: generated .rk files
# env:   OUT       where logs go (default bench/out)
#        SHAPES    the shapes, "MxN ..." (default: few, tiny, odd, long and colsum-sized rows)
#        DTYPES    (default "bf16 f16 f32"); POLICIES (default "rkc helion2828")
#        ARCHS     the targets compiled for (default sm_90); an H100 or H200 runs sm_80, sm_86 and
#                  sm_89 PTX too (the driver compiles it for the device), not sm_100's
#        KERNELS   the kernel files (default: tests' regression kernels and GENDIR's)
#        PAD       a second run of each at rows P elements longer than N, the padding checked
#                  unwritten (default 0: none); a row stride is N plus a multiple of 8, of 16
#                  with byte-wide (i8, fp8) arrays, so 16 suits every kernel
#        JOBS      runs at once (default 1); MEMCHECK  kernels under memcheck (default 15)
set -u
cd "$(dirname "$0")/.."
RKC=$1
GEN=$2
OUT=${OUT:-bench/out}
SHAPES=${SHAPES:-"1x1 3x7 5x1000 64x4097 1000x896 4x151936 2x1048576 65536x64 300x8192"}
DTYPES=${DTYPES:-"bf16 f16 f32"}
POLICIES=${POLICIES:-"rkc helion2828"}
ARCHS=${ARCHS:-sm_90}
KERNELS=${KERNELS:-"$(ls tests/heuristics/kernels/*.rk tests/analysis/plan/*.rk "$GEN"/*.rk)"}
PAD=${PAD:-0}
JOBS=${JOBS:-1}
MEMCHECK=${MEMCHECK:-15}
mkdir -p "$OUT/robust"
log=$OUT/robust.log
shapes=""
for s in $SHAPES; do shapes="$shapes --shape $s"; done
# one line a run: kernel dtype policy pad arch; each run logs to its own file, joined in order after
jobs=$OUT/robust/jobs.txt
: >"$jobs"
for k in $KERNELS; do
	for dt in $DTYPES; do
		for policy in $POLICIES; do
			for arch in $ARCHS; do
				echo "$k $dt $policy 0 $arch" >>"$jobs"
				[ "$PAD" != 0 ] && echo "$k $dt $policy $PAD $arch" >>"$jobs"
			done
		done
	done
done
one() {
	local k=$1 dt=$2 policy=$3 pad=$4 arch=$5
	local f=$OUT/robust/$(echo "$k-$dt-$policy-$pad-$arch" | tr '/' '_').log
	{
		echo "== $k $dt $policy pad=$pad $arch"
		timeout 300 "$RKC" run "$k" $shapes --dtype "$dt" --policy "$policy" --pad "$pad" \
			--arch "$arch" --check 2>&1 || echo "EXIT $? $k $dt $policy pad=$pad $arch"
	} >"$f"
}
export -f one
export OUT RKC shapes
xargs -P "$JOBS" -L 1 bash -c 'one "$@"' _ <"$jobs"
: >"$log"
while read -r k dt policy pad arch; do
	cat "$OUT/robust/$(echo "$k-$dt-$policy-$pad-$arch" | tr '/' '_').log" >>"$log"
done <"$jobs"
rm -rf "$OUT/robust"
san=$OUT/robust-memcheck.log
: >"$san"
for k in $(echo "$KERNELS" | tr ' ' '\n' | head -"$MEMCHECK"); do
	echo "== $k" >>"$san"
	timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 "$RKC" run "$k" \
		--shape 3x7 --shape 5x1000 --shape 64x4097 --shape 2x50257 --dtype bf16 --check \
		>>"$san" 2>&1 || echo "EXIT $? $k" >>"$san"
done
echo "checks: $(grep -c 'RESULT.*status=ok' "$log") ok, $(grep -c 'RESULT.*status=FAIL' "$log") failed," \
	"$(grep -c 'RESULT.*status=ERROR' "$log") errors, $(grep -c '^EXIT' "$log") processes exited non-zero"
echo "memcheck: $(grep -c '^== ' "$san") kernels, $(grep -c 'ERROR SUMMARY: 0 errors' "$san") clean runs," \
	"$(grep -c '^EXIT' "$san") exited non-zero"
grep 'status=FAIL\|status=ERROR\|^EXIT' "$log" "$san" | head -40
