#!/bin/bash
# This session's new codegen paths on the GPU, each checked against the float64 reference and
# under compute-sanitizer memcheck, racecheck and synccheck: a running max with two and with three
# online sums (cross-warp partials in shared memory), and a split row combined in a loop (more
# than 64 segments). usage: bench/sanitize_new.sh RKC; env OUT for the logs.
set -u
cd "$(dirname "$0")/.."
RKC=$1
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
log=$OUT/sanitize-new.log
: >"$log"
runs=(
	"tests/analysis/plan/two_sums.rk --shape 64x65536 --dtype bf16 --config persistent=0,r_block=8192,m_block=1,num_warps=8,vec=8"
	"tests/analysis/plan/five_sums.rk --shape 64x4097 --dtype f32 --config persistent=1,r_block=5120,m_block=1,num_warps=8,vec=4"
	"tests/analysis/plan/five_sums.rk --shape 33x70001 --dtype f16 --config persistent=0,r_block=4096,m_block=1,num_warps=16,vec=8"
	"testdata/kernels/sum.rk --shape 2x1048576 --dtype f32 --config persistent=0,r_block=4096,m_block=1,num_warps=8,vec=4,split=128"
	"testdata/kernels/kl_div.rk --shape 3x300007 --dtype bf16 --config persistent=0,r_block=2048,m_block=1,num_warps=8,vec=8,split=100"
)
for r in "${runs[@]}"; do
	echo "== check $r" >>"$log"
	"$RKC" run $r --check >>"$log" 2>&1 || echo "EXIT $? check $r" >>"$log"
	for tool in memcheck racecheck synccheck; do
		echo "== $tool $r" >>"$log"
		compute-sanitizer --tool $tool --error-exitcode 9 "$RKC" run $r --check >>"$log" 2>&1 ||
			echo "EXIT $? $tool $r" >>"$log"
	done
done
echo "checks: $(grep -c 'RESULT.*status=ok' "$log") ok of $(grep -c 'RESULT' "$log");" \
	"sanitizer runs: $(grep -c 'ERROR SUMMARY: 0 errors\|RACECHECK SUMMARY: 0 hazards' "$log") clean of $((${#runs[@]} * 3));" \
	"$(grep -c '^EXIT' "$log") non-zero exits"
grep '^EXIT\|status=FAIL' "$log" | head
