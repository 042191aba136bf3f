#!/bin/bash
# New codegen paths on the GPU, each checked against the float64 reference and under
# compute-sanitizer memcheck, racecheck and synccheck: a running max with two and with three
# online sums (cross-warp partials in shared memory), a split row combined in a loop (more than 64
# segments), and cooperative rows (coop=1) at odd shapes: 1x1 with empty segments, a prime width
# over 37 CTAs, 50257 kept in shared memory, welford over 132 CTAs, two rows a CTA, and the
# policy's pick for one row of 4M; sums over rows whose row groups pre-sum in shared memory (two
# to sixteen groups, partials in registers and in shared memory, an odd M and width); the colsums'
# own pass (colsum_late: two row groups with a row past M, the rows kept on chip by cp.async, an
# [N] input in the colsum), and beside it partials kept in the workspace (a colsum that needs a
# row reduction; all five at --shape 7x); the one-hot sum's branch and the masked row select
# (cross_entropy_backward at three odd widths, kept on chip over a cluster, vec 1 and 2); the
# read-back of a stored value (fused_add_*: rows shifted by a prime width, a cluster, two rows a CTA
# with one past M, cooperative rows at vec 2; kept on chip, filled by cp.async over a cluster and
# by registers at two rows a CTA); grids of clusters whose CTAs keep their segments' colsum
# partials (looped and persistent, a prime width over 3 CTAs, 50257 over 4, 1x1 with an empty
# segment, two row groups, cp.async fill, a colsum beside a row max over 16 CTAs a row, and the
# colsums' own pass over a cluster's segments at a prime width); the one slot, one band walking
# every row and storing its sums itself (a prime width over 3 CTAs, a cluster of 4 kept by cp.async
# and with persistent rows, one CTA, the own pass over a cluster, and the policy's picks at one and
# two rows); the ring of a persistent grid (ahead 2 to 4: M = 1 under a grid of 5, two rows a CTA
# with one past M, a prime width at vec 1, scaled_masked_softmax's mask, the partials in shared
# memory, a label, four rows a CTA, the policy's picks, and odd_types' bool beside bf16); the column
# pass (colpass=1: 1x1, a prime width element by element over cooperative rows and kept on chip,
# the few-rows pick's cooperative bands, an [N] input in the colsum, under the ring, and a wide
# row kept by cp.async at 32 warps, as settle_colpass takes it); Welford over a row of equal
# elements (welford_const: cooperative rows, a cluster, looped chunks of 12 elements a thread); a
# kernel whose only output is a colsum (colsum_only: vec 8 under the pre-sum and the own pass, a
# column pass of 150 CTAs, the policy's picks of the column pass at three odd shapes); a kernel
# made whole in the column pass (colpass_whole: 1x1, a misaligned width over more CTAs than rows,
# a prime width, a grid of 160 over 300 rows, the policy's picks of three kernels at few rows,
# and 11 misaligned rows of bias_gelu_back: whole round trips without a branch, and edge ones);
# whole chunks at scalar accesses (the batch-invariant picks at odd widths over clusters, kept in
# shared memory and not, one row; sums over rows in shared memory and in the workspace; two rows
# a CTA with one past M over a cluster; the one-hot sum's branch; 1x1 with no whole chunk);
# streamed bands in place of the colsums' own pass (the policy's pick at a prime width past the
# SMs, and two odd widths over clusters of 8 at two CTAs an SM with more CTAs than rows); bands of
# cooperating CTAs walking more rows than SMs (3 bands of 8 over 141 rows of a prime width kept in
# shared memory, 4 bands of 4 over 135 rows filled by cp.async, and the policy's picks at 133 and
# 139 rows of odd widths, one stashing a value).
# Over a
# cluster of 16 CTAs with more clusters than fit at once, synccheck reports
# divergent barriers in plain CUDA C too (bench/synccheck/run.sh): the first five_sums line, which
# takes the pick's cluster of 16, has a twin over 8. usage:
# bench/sanitize_new.sh RKC [PATTERN]: only the runs whose line has PATTERN (a fixed string; '|'
# separates alternatives) where one is given; env OUT for the logs.
set -u
cd "$(dirname "$0")/.."
RKC=$1 PATTERN=${2:-}
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
log=$OUT/sanitize-new.log
: >"$log"
runs=(
	"tests/analysis/plan/two_sums.rk --shape 64x65536 --dtype bf16 --config persistent=0,r_block=8192,m_block=1,num_warps=8,vec=8"
	"tests/analysis/plan/five_sums.rk --shape 64x4097 --dtype f32 --config persistent=1,r_block=5120,m_block=1,num_warps=8,vec=4"
	"tests/analysis/plan/five_sums.rk --shape 33x70001 --dtype f16 --config persistent=0,r_block=4096,m_block=1,num_warps=16,vec=8"
	"tests/analysis/plan/five_sums.rk --shape 33x70001 --dtype f16 --config persistent=0,r_block=4096,m_block=1,num_warps=16,vec=8,cluster=8,smem=1"
	"testdata/kernels/sum.rk --shape 2x1048576 --dtype f32 --config persistent=0,r_block=4096,m_block=1,num_warps=8,vec=4,split=128"
	"testdata/kernels/kl_div.rk --shape 3x300007 --dtype bf16 --config persistent=0,r_block=2048,m_block=1,num_warps=8,vec=8,split=100"
	"testdata/kernels/rms_norm.rk --shape 1x1 --dtype bf16 --config persistent=1,r_block=64,m_block=1,num_warps=2,vec=1,split=1,cluster=5,coop=1"
	"testdata/kernels/layer_norm.rk --shape 3x1000003 --dtype f32 --config persistent=0,r_block=4096,m_block=1,num_warps=8,vec=4,split=1,cluster=37,coop=1"
	"testdata/kernels/softmax.rk --shape 2x50257 --dtype bf16 --config persistent=0,r_block=2048,m_block=1,num_warps=4,vec=8,split=1,smem=1,cluster=33,coop=1"
	"testdata/kernels/welford.rk --shape 1x1000003 --dtype bf16 --config persistent=1,r_block=8192,m_block=1,num_warps=8,vec=8,split=1,cluster=132,coop=1"
	"tests/codegen/welford_const.rk --shape 2x100000 --dtype f32 --config persistent=1,r_block=16384,m_block=1,num_warps=1,vec=4,split=1,cluster=8,coop=1"
	"tests/codegen/welford_const.rk --shape 2x100000 --dtype bf16 --config persistent=1,r_block=16384,m_block=1,num_warps=1,vec=8,split=1,cluster=8"
	"tests/codegen/welford_const.rk --shape 3x1000 --dtype f32 --config persistent=0,r_block=384,m_block=1,num_warps=1,vec=4,split=1"
	"testdata/kernels/cross_entropy_ls_zloss.rk --shape 5x50257 --dtype f32 --config persistent=1,r_block=2048,m_block=2,num_warps=8,vec=4,split=1,cluster=26,coop=1"
	"testdata/kernels/fused_add_layernorm.rk --shape 1x4194304 --dtype bf16"
	"testdata/kernels/layer_norm_backward.rk --shape 1001x768 --dtype bf16 --config persistent=1,r_block=1024,m_block=4,num_warps=8,vec=8,grid=30"
	"testdata/kernels/rms_norm_backward.rk --shape 333x1000 --dtype f32 --config persistent=1,r_block=1024,m_block=2,num_warps=4,vec=4,grid=20,ahead=1"
	"testdata/kernels/layer_norm_backward.rk --shape 777x40 --dtype f16 --config persistent=1,r_block=64,m_block=16,num_warps=4,vec=4,grid=10,smem=1"
	"testdata/kernels/rms_norm_backward.rk --shape 1001x768 --dtype bf16 --config persistent=1,r_block=1024,m_block=4,num_warps=8,vec=8,grid=30,smem=1"
	"testdata/kernels/rms_norm_backward.rk --shape 20011x384 --dtype bf16"
	"testdata/kernels/layer_norm_backward.rk --shape 7x30011 --dtype f32 --config persistent=0,r_block=4096,m_block=2,num_warps=4,vec=1,grid=3,smem=0"
	"testdata/kernels/rms_norm_backward.rk --shape 7x60000 --dtype bf16 --config persistent=0,r_block=2048,m_block=1,num_warps=4,vec=8,grid=3,smem=0"
	"testdata/kernels/layer_norm_backward.rk --shape 7x32768 --dtype bf16 --config persistent=0,r_block=8192,m_block=1,num_warps=8,vec=8,grid=5,smem=2,evict=1"
	"tests/codegen/colsum_exp.rk --shape 7x60000 --dtype f32 --config persistent=0,r_block=1024,m_block=1,num_warps=4,vec=4,grid=4,smem=0"
	"tests/codegen/colsum_dep.rk --shape 7x60000 --dtype f32 --config persistent=0,r_block=1024,m_block=1,num_warps=4,vec=4,grid=2,smem=0"
	"testdata/kernels/cross_entropy_backward.rk --shape 5x50257 --dtype bf16 --config persistent=0,r_block=4096,m_block=1,num_warps=8,vec=8,cluster=4,smem=2"
	"testdata/kernels/cross_entropy_backward.rk --shape 3x1000003 --dtype f32 --config persistent=0,r_block=2048,m_block=1,num_warps=4,vec=1"
	"testdata/kernels/cross_entropy_backward.rk --shape 9x4099 --dtype f16 --config persistent=0,r_block=1024,m_block=2,num_warps=4,vec=2"
	"testdata/kernels/fused_add_rmsnorm.rk --shape 3x1000003 --dtype bf16 --config persistent=0,r_block=4096,m_block=1,num_warps=4,vec=8"
	"testdata/kernels/fused_add_layernorm.rk --shape 5x50257 --dtype bf16 --config persistent=0,r_block=2048,m_block=1,num_warps=4,vec=8,cluster=4"
	"testdata/kernels/fused_add_rmsnorm.rk --shape 9x4099 --dtype f32 --config persistent=0,r_block=1024,m_block=2,num_warps=4,vec=4"
	"testdata/kernels/fused_add_layernorm.rk --shape 2x70001 --dtype f16 --config persistent=0,r_block=1024,m_block=1,num_warps=2,vec=2,cluster=3,coop=1"
	"testdata/kernels/fused_add_rmsnorm.rk --shape 5x50257 --dtype bf16 --config persistent=0,r_block=2048,m_block=1,num_warps=4,vec=8,cluster=4,smem=2"
	"testdata/kernels/fused_add_layernorm.rk --shape 3x70001 --dtype f32 --config persistent=0,r_block=1024,m_block=2,num_warps=4,vec=4,smem=1"
	"testdata/kernels/layer_norm_backward.rk --shape 7x30011 --dtype f32 --config persistent=0,r_block=1024,m_block=1,num_warps=4,vec=1,grid=6,cluster=3"
	"testdata/kernels/rms_norm_backward.rk --shape 5x50257 --dtype bf16 --config persistent=0,r_block=2048,m_block=1,num_warps=8,vec=1,grid=8,cluster=4,smem=1"
	"testdata/kernels/layer_norm_backward.rk --shape 1x1 --dtype f32 --config persistent=1,r_block=32,m_block=1,num_warps=1,vec=1,grid=2,cluster=2"
	"testdata/kernels/layer_norm_backward.rk --shape 9x4096 --dtype bf16 --config persistent=1,r_block=1024,m_block=2,num_warps=2,vec=8,grid=8,cluster=4,smem=1"
	"testdata/kernels/layer_norm_backward.rk --shape 37x32768 --dtype bf16 --config persistent=0,r_block=4096,m_block=1,num_warps=16,vec=8,grid=16,cluster=4,smem=2,evict=1,min_ctas=2"
	"bench/heldout/colonly.rk --shape 8x262144 --dtype bf16"
	"testdata/kernels/rms_norm_backward.rk --shape 5x150001 --dtype f32 --config persistent=0,r_block=1024,m_block=1,num_warps=4,vec=1,grid=6,cluster=2,smem=0"
	"bench/heldout/colonly.rk --shape 8x1000003 --dtype bf16"
	"testdata/kernels/layer_norm_backward.rk --shape 5x30011 --dtype f32 --config persistent=0,r_block=1024,m_block=1,num_warps=4,vec=1,grid=3,cluster=3"
	"testdata/kernels/rms_norm_backward.rk --shape 6x8192 --dtype bf16 --config persistent=0,r_block=1024,m_block=1,num_warps=4,vec=8,grid=4,cluster=4,smem=2"
	"testdata/kernels/layer_norm_backward.rk --shape 5x4096 --dtype bf16 --config persistent=1,r_block=1024,m_block=1,num_warps=2,vec=8,grid=4,cluster=4,smem=1,ahead=0"
	"testdata/kernels/rms_norm_backward.rk --shape 7x1000 --dtype f32 --config persistent=1,r_block=1024,m_block=1,num_warps=4,vec=4,grid=1"
	"bench/heldout/colonly.rk --shape 3x130001 --dtype bf16 --config persistent=0,r_block=2048,m_block=1,num_warps=4,vec=1,grid=2,cluster=2"
	"testdata/kernels/layer_norm_backward.rk --shape 1x1000003 --dtype bf16"
	"testdata/kernels/rms_norm_backward.rk --shape 2x262144 --dtype f16"
	"testdata/kernels/layer_norm_backward.rk --shape 1x1024 --dtype bf16 --config persistent=1,r_block=1024,m_block=1,num_warps=4,vec=8,grid=5,smem=1,ahead=2"
	"testdata/kernels/rms_norm_backward.rk --shape 333x1000 --dtype f32 --config persistent=1,r_block=1024,m_block=2,num_warps=4,vec=4,grid=20,ahead=3"
	"testdata/kernels/softmax.rk --shape 37x1009 --dtype f32 --config persistent=1,r_block=1024,m_block=1,num_warps=8,vec=1,grid=6,ahead=2"
	"testdata/kernels/scaled_masked_softmax.rk --shape 19x512 --dtype bf16 --config persistent=1,r_block=512,m_block=1,num_warps=2,vec=4,grid=3,ahead=4"
	"testdata/kernels/layer_norm_backward.rk --shape 264x8192 --dtype bf16 --config persistent=1,r_block=8192,m_block=1,num_warps=16,vec=8,grid=132,smem=1,ahead=2"
	"testdata/kernels/cross_entropy_backward.rk --shape 13x1024 --dtype bf16 --config persistent=1,r_block=1024,m_block=1,num_warps=2,vec=8,grid=4,ahead=2"
	"testdata/kernels/rms_norm.rk --shape 41x256 --dtype bf16 --config persistent=1,r_block=256,m_block=4,num_warps=1,vec=2,grid=3,ahead=2"
	"testdata/kernels/layer_norm_backward.rk --shape 777x4000 --dtype bf16"
	"testdata/kernels/rms_norm_backward.rk --shape 3001x640 --dtype bf16 --config persistent=1,r_block=768,m_block=16,num_warps=16,vec=8,grid=132,smem=1,ahead=2"
	"tests/codegen/odd_types.rk --shape 19x512 --dtype bf16 --config persistent=1,r_block=512,m_block=1,num_warps=2,vec=8,grid=3,ahead=2"
	"testdata/kernels/layer_norm_backward.rk --shape 1x1 --dtype f32 --config persistent=1,r_block=32,m_block=1,num_warps=1,vec=1,grid=3,colpass=1"
	"testdata/kernels/layer_norm_backward.rk --shape 37x30011 --dtype f32 --config persistent=1,r_block=4096,m_block=1,num_warps=4,vec=1,grid=24,cluster=8,coop=1,colpass=1"
	"testdata/kernels/rms_norm_backward.rk --shape 101x50257 --dtype bf16 --config persistent=0,r_block=2048,m_block=1,num_warps=8,vec=1,grid=7,smem=1,evict=1,colpass=1"
	"testdata/kernels/layer_norm_backward.rk --shape 100x28672 --dtype bf16 --config persistent=1,r_block=6144,m_block=1,num_warps=4,vec=8,cluster=5,coop=1,grid=260,evict=1,min_ctas=2,colpass=1"
	"bench/heldout/colonly.rk --shape 37x131072 --dtype bf16 --config persistent=0,r_block=32768,m_block=1,num_warps=32,vec=4,grid=132,colpass=1"
	"testdata/kernels/rms_norm_backward.rk --shape 777x4000 --dtype bf16 --config persistent=1,r_block=4096,m_block=1,num_warps=8,vec=8,grid=264,ahead=2,colpass=1"
	"testdata/kernels/layer_norm_backward.rk --shape 41x49152 --dtype bf16 --config persistent=0,r_block=8192,m_block=1,num_warps=32,vec=8,grid=132,smem=2,evict=1,colpass=1"
	"tests/heuristics/kernels/colsum_only.rk --shape 37x64 --dtype bf16 --config persistent=1,r_block=64,m_block=8,num_warps=1,vec=8,grid=3"
	"tests/heuristics/kernels/colsum_only.rk --shape 9x4096 --dtype bf16 --config persistent=0,r_block=1024,m_block=1,num_warps=4,vec=8,grid=4"
	"tests/heuristics/kernels/colsum_only.rk --shape 300x96 --dtype f32 --config persistent=1,r_block=128,m_block=2,num_warps=2,vec=4,min_ctas=2,grid=150,colpass=1"
	"tests/heuristics/kernels/colsum_only.rk --shape 301x4104 --dtype f16"
	"tests/heuristics/kernels/colsum_only.rk --shape 1000x8200 --dtype f32"
	"tests/heuristics/kernels/colsum_only.rk --shape 3x1000 --dtype bf16"
	"tests/codegen/colpass_whole.rk --shape 1x1 --dtype f16 --config persistent=1,r_block=32,m_block=1,num_warps=1,vec=1,grid=2,colpass=1"
	"tests/codegen/colpass_whole.rk --shape 7x1000 --dtype bf16 --config persistent=1,r_block=1024,m_block=1,num_warps=2,vec=4,grid=9,colpass=1"
	"tests/codegen/colpass_whole.rk --shape 37x50257 --dtype bf16"
	"tests/codegen/colpass_whole.rk --shape 300x96 --dtype f32 --config persistent=1,r_block=128,m_block=2,num_warps=2,vec=4,grid=160,colpass=1"
	"bench/heldout/bias_gelu_back.rk --shape 11x65537 --dtype bf16 --config persistent=1,r_block=65792,m_block=1,num_warps=8,vec=1,grid=64,colpass=1"
	"bench/heldout/bias_gelu_back.rk --shape 8x1000003 --dtype bf16"
	"bench/heldout/bias_gelu_back.rk --shape 3x151936 --dtype f32"
	"bench/heldout/bias_grad.rk --shape 5x1000003 --dtype f16"
	"testdata/kernels/layer_norm.rk --shape 33x65537 --dtype f32 --batch-invariant"
	"testdata/kernels/softmax.rk --shape 3x1000003 --dtype bf16 --batch-invariant"
	"testdata/kernels/gated_rmsnorm.rk --shape 4x1000003 --dtype bf16 --batch-invariant"
	"testdata/kernels/fused_add_rmsnorm.rk --shape 1x1000003 --dtype bf16 --batch-invariant"
	"testdata/kernels/rms_norm_backward.rk --shape 64x100003 --dtype bf16"
	"testdata/kernels/layer_norm_backward.rk --shape 9x262147 --dtype f32 --config persistent=0,r_block=8192,m_block=1,num_warps=8,vec=1,cluster=8,grid=48"
	"testdata/kernels/softmax.rk --shape 3x70001 --dtype bf16 --config persistent=0,r_block=2048,m_block=2,num_warps=4,vec=1,cluster=4,smem=1"
	"testdata/kernels/cross_entropy_backward.rk --shape 5x50257 --dtype bf16 --config persistent=0,r_block=2048,m_block=1,num_warps=4,vec=1,cluster=4,smem=1"
	"testdata/kernels/layer_norm.rk --shape 1x1 --dtype f32 --config persistent=0,r_block=32,m_block=1,num_warps=1,vec=1"
	"testdata/kernels/layer_norm_backward.rk --shape 137x30011 --dtype f32"
	"testdata/kernels/rms_norm_backward.rk --shape 11x60001 --dtype f32 --config persistent=0,r_block=4096,m_block=1,num_warps=8,vec=1,cluster=8,grid=240,min_ctas=2"
	"bench/heldout/add_rms_bwd.rk --shape 7x70001 --dtype bf16 --config persistent=0,r_block=4096,m_block=1,num_warps=8,vec=1,cluster=8,grid=240,min_ctas=2"
	"testdata/kernels/layer_norm.rk --shape 141x30011 --dtype f32 --config persistent=0,r_block=1024,m_block=1,num_warps=4,vec=4,evict=1,min_ctas=2,cluster=8,grid=24,coop=1,smem=1"
	"testdata/kernels/welford.rk --shape 135x65537 --dtype f16 --config persistent=0,r_block=2048,m_block=1,num_warps=4,vec=8,evict=1,min_ctas=2,cluster=4,grid=16,coop=1,smem=2"
	"testdata/kernels/gated_rmsnorm.rk --shape 133x1000003 --dtype bf16"
	"testdata/kernels/softmax.rk --shape 139x600011 --dtype f32"
)
n=0
for r in "${runs[@]}"; do
	if [ -n "$PATTERN" ]; then
		hit=0
		IFS='|' read -ra pats <<<"$PATTERN"
		for p in "${pats[@]}"; do
			case "$r" in *"$p"*) hit=1 ;; esac
		done
		[ $hit = 1 ] || continue
	fi
	n=$((n + 1))
	echo "== check $r" >>"$log"
	"$RKC" run $r --check >>"$log" 2>&1 || echo "EXIT $? check $r" >>"$log"
	for tool in memcheck racecheck synccheck; do
		echo "== $tool $r" >>"$log"
		compute-sanitizer --tool $tool --error-exitcode 9 "$RKC" run $r --check >>"$log" 2>&1 ||
			echo "EXIT $? $tool $r" >>"$log"
	done
done
echo "checks: $(grep -c 'RESULT.*status=ok' "$log") ok of $(grep -c 'RESULT' "$log");" \
	"sanitizer runs: $(grep -c 'ERROR SUMMARY: 0 errors\|RACECHECK SUMMARY: 0 hazards' "$log") clean of $((n * 3));" \
	"$(grep -c '^EXIT' "$log") non-zero exits"
grep '^EXIT\|status=FAIL' "$log" | head
