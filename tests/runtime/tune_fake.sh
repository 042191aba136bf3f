#!/bin/sh
# rkc tune's whole path against the stand-in driver (launches do nothing, every event 10 us later):
# candidates compiled and timed, a line each, the seed marked, the TUNE line; checks that fail
# exclude a candidate; usage errors exit 2, a bad kernel 1.
# $1 is the rkc binary, $2 the stand-in driver library; run from the source root.
rkc=$1
export RKC_LIBCUDA=$2
k=testdata/kernels/rms_norm.rk
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/expect.sh"

# Timed only: every candidate takes the fake's 10 us, so the seed (first in the ranking) ranks
# first and is the best; helion2828's pick is marked, added or among the ranking's two.
expect 0 "device: fake GPU" "rms_norm bf16 64x128: " "   1     1  P r" "<- seed (rkc)" "helion2828" \
	"TUNE kernel=rms_norm dtype=bf16 M=64 N=128 seed_us=10.00 best_us=10.00 seed_over_best=1.000 seed_rank=1 candidates=" \
	"seed_status=unchecked helion_us=10.00 helion_over_best=1.000" \
	'best_config={"persistent":' -- \
	tune $k --shape 64x128 --dtype bf16 --top 2 --no-check --copy-gbps 3000
# One line per candidate: as many ranked lines as the TUNE line counts, each with its time.
lines=$(printf '%s\n' "$out" | grep -cE '^ +[0-9]+ +([0-9]+|[a-z])  [PL][0-9 ].* 10\.00 ')
n=$(printf '%s\n' "$out" | sed -n 's/^TUNE .*candidates=\([0-9]*\).*/\1/p')
if [ -n "$n" ] && [ "$lines" = "$n" ]; then
	passed=$((passed + 1))
else
	fail "$lines candidate lines for candidates=$n"
fi

# A seed that keeps rows and stashes, its stash keeping no row (so smem=1, nothing to fill): the
# seed with the other stash added, its kept rows filled by cp.async, and no other fill. At more
# rows than SMs: a cooperative grid of bands, which fewer rows may take, could not launch on the
# fake GPU's 4 SMs.
expect 0 "then helion2828's pick, then the seed with stash=0" \
	"   1     1  L2048 m1 w4 v8 c16 S st e k9" "   s  L2048 m1 w4 v8 c16 Sa e k9" \
	"<- the seed with stash=0" -- \
	tune testdata/kernels/gated_rmsnorm.rk --shape 200x98304 --dtype bf16 --top 1 --no-check \
	--copy-gbps 3000
case $out in *"the seed with smem="*) fail "tune: another fill of a stash that keeps no row" ;; esac

# A persistent seed whose row an odd count of warps splits evenly: the seed over the nearest such
# count added (7168 bf16 columns, 896 vectors: 7 warps, nearest the seed's 4), marked.
expect 0 ", then the seed over odd warps" "   o  P r7168 m1 w7 v8" "<- the seed over odd warps" -- \
	tune testdata/kernels/welford.rk --shape 16384x7168 --dtype bf16 --top 1 --no-check \
	--copy-gbps 3000
expect 0 '"cand":"o"' -- tune testdata/kernels/welford.rk --shape 16384x7168 --dtype bf16 --top 1 \
	--no-check --copy-gbps 3000 --json

# A persistent seed alone on its SM (gelu_tanh_gated fp32 at 24576 columns: one CTA of 16 warps,
# settle_lone_warps's, over the ranking's 8, which is timed as the seed as ranked): its row over
# clusters of 2 and 4 CTAs added, each a persistent segment, marked.
expect 0 ", then the seed over clusters" "   c  P r12288 m1 w16 v4 c2" "   c  P r6144 m1 w16 v4 c4" \
	"<- the seed over a cluster" "   w  P r24576 m1 w8 v4 " -- \
	tune testdata/kernels/gelu_tanh_gated.rk --shape 4096x24576 --dtype f32 --top 1 --no-check \
	--copy-gbps 3000
expect 0 '"cand":"c"' -- tune testdata/kernels/gelu_tanh_gated.rk --shape 4096x24576 --dtype f32 \
	--top 1 --no-check --copy-gbps 3000 --json
# Not where the seed shares its SM (rms_norm 64x128: many CTAs an SM).
expect 0 "TUNE kernel=rms_norm" -- tune $k --shape 64x128 --dtype bf16 --top 1 --no-check \
	--copy-gbps 3000
case $out in *"over a cluster"*) fail "tune: a cluster candidate for a seed that shares its SM" ;; esac

# A seed whose column pass makes the whole kernel (bias_gelu_back bf16 512x20011: one CTA of 16
# warps an SM, as 24 round trips a thread at 4 CTAs an SM are over settle_colpass_ctas's 20):
# that pass over CTAs of 8 warps, 2 and 4 an SM, on grids of 264 and 528, marked.
expect 0 ", then the column pass at more CTAs an SM" "   p  P r20480 m1 w8 v1 g264 cp k2" \
	"   p  P r20480 m1 w8 v1 g528 cp k4" "<- the column pass at more CTAs an SM" -- \
	tune bench/heldout/bias_gelu_back.rk --shape 512x20011 --dtype bf16 --top 1 --no-check \
	--copy-gbps 3000
expect 0 '"cand":"p"' -- tune bench/heldout/bias_gelu_back.rk --shape 512x20011 --dtype bf16 \
	--top 1 --no-check --copy-gbps 3000 --json
# Where settle_colpass_ctas took 4 CTAs an SM (64x50257: 8 round trips a thread), the seed is
# cand p's config at 4, which is not listed twice; the 2 an SM and the seed as ranked are.
expect 0 "   1     1  P r50688 m1 w8 v1 g528 cp e k4" "   p  P r50688 m1 w8 v1 g264 cp e k2" \
	"   w  P r50688 m1 w16 v1 g132 cp e" "<- the seed as ranked (before the settle rules)" -- \
	tune bench/heldout/bias_gelu_back.rk --shape 64x50257 --dtype bf16 --top 1 --no-check \
	--copy-gbps 3000
case $out in *"g528 cp e k4 "*"g528 cp e k4 "*) fail "tune: the seed's config listed twice" ;; esac
# Not where the columns are fewer than the grid's CTAs (3x5: 2 vectors), nor where the seed has no
# column pass (rms_norm 64x128), nor in the batch-invariant mode.
for pt in "bench/heldout/bias_gelu_back.rk 3x5" "$k 64x128" \
	"bench/heldout/bias_gelu_back.rk 64x50257 --batch-invariant"; do
	set -- $pt
	expect 0 "TUNE kernel=" -- tune $1 --shape $2 --dtype bf16 --top 1 --no-check \
		--copy-gbps 3000 ${3:-}
	case $out in *"more CTAs an SM"*) fail "tune: a cand p at $pt" ;; esac
done

# A seed whose capped count lands within 8 registers over the cap one CTA higher (welford bf16
# 8192x3584: 7 warps, min_ctas 5): the seed at min_ctas 6 added, marked.
expect 0 ", then the seed one CTA an SM higher" "   k  P r3584 m1 w7 v8 k6" \
	"<- the seed one CTA an SM higher" -- \
	tune testdata/kernels/welford.rk --shape 8192x3584 --dtype bf16 --top 1 --no-check \
	--copy-gbps 3000
expect 0 '"cand":"k"' -- tune testdata/kernels/welford.rk --shape 8192x3584 --dtype bf16 \
	--top 1 --no-check --copy-gbps 3000 --json
# Not where one CTA more would be far over its cap (rms_norm 64x128) or where the seed has none
# (gelu_tanh_gated fp32 4096x24576: min_ctas 1).
for pt in "rms_norm 64x128 bf16" "gelu_tanh_gated 4096x24576 f32"; do
	set -- $pt
	expect 0 "TUNE kernel=$1" -- tune testdata/kernels/$1.rk --shape $2 --dtype $3 --top 1 \
		--no-check --copy-gbps 3000
	case $out in *"one CTA an SM higher"*) fail "tune: a cand k at $1 $2" ;; esac
done

# A seed whose min_ctas caps ptxas under its predicted registers (softmax bf16 65536x256: 33
# registers, min_ctas 25 caps at 32): the seed at the most CTAs an SM whose cap holds them (24,
# 40 registers) added, marked.
expect 0 ", then the seed at a cap that holds its registers" "   r  P r256 m4 w2 v8 k24" \
	"<- the seed at a cap that holds its registers" -- \
	tune testdata/kernels/softmax.rk --shape 65536x256 --dtype bf16 --top 1 --no-check \
	--copy-gbps 3000
expect 0 '"cand":"r"' -- tune testdata/kernels/softmax.rk --shape 65536x256 --dtype bf16 --top 1 \
	--no-check --copy-gbps 3000 --json
# Not where the cap holds them (rms_norm 64x128).
expect 0 "TUNE kernel=rms_norm" -- tune $k --shape 64x128 --dtype bf16 --top 1 --no-check \
	--copy-gbps 3000
case $out in *"cap that holds"*) fail "tune: a cand r at rms_norm 64x128" ;; esac
# Nor on a cooperative launch, whose grid needs its CTAs an SM (layer_norm_backward bf16
# 65536x768: 133 registers over the cap of 128 at 7). The stand-in driver holds 2 CTAs an SM of
# its 4 SMs, so it refuses the grid of 924, and the error says why in the grid's terms.
expect 1 "a cooperative grid of 924 CTAs must be resident at once, but at 32 registers a thread" \
	"2 fit an SM, 8 over 4 SMs: force a higher min_ctas" "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE" \
	"TUNE kernel=layer_norm_backward" -- \
	tune testdata/kernels/layer_norm_backward.rk --shape 65536x768 --dtype bf16 --top 1 --no-check \
	--copy-gbps 3000
case $out in *"cap that holds"*) fail "tune: a cand r on a cooperative launch" ;; esac

# The best each dropping rule of the policy set aside, marked with its rule (rms_norm_backward bf16
# 4096x4096: drop_kept_rows, drop_ws_colsums and drop_streamed_colsums; 1024x65536:
# take_streamed_bands; layer_norm_backward bf16 4096x65536: lone_own_colsums; fused_linear_jsd
# fp32 132x200000: drop_lone_clusters), and in --json with the rule; none in the batch-invariant
# mode.
expect 1 ", then the best the policy's rules set aside" "   x  L2048 m2 w8 v8 Sa g264 e k2" \
	"<- set aside by drop_kept_rows" "<- set aside by drop_ws_colsums" \
	"<- set aside by drop_streamed_colsums" -- \
	tune testdata/kernels/rms_norm_backward.rk --shape 4096x4096 --dtype bf16 --top 1 --no-check \
	--copy-gbps 3000
expect 1 "<- set aside by take_streamed_bands" -- \
	tune testdata/kernels/rms_norm_backward.rk --shape 1024x65536 --dtype bf16 --top 1 \
	--no-check --copy-gbps 3000
expect 1 "<- set aside by lone_own_colsums" -- \
	tune testdata/kernels/layer_norm_backward.rk --shape 4096x65536 --dtype bf16 --top 1 \
	--no-check --copy-gbps 3000
expect 1 '"cand":"x"' '"rule":"lone_own_colsums"' -- \
	tune testdata/kernels/layer_norm_backward.rk --shape 4096x65536 --dtype bf16 --top 1 \
	--no-check --copy-gbps 3000 --json
# drop_lone_clusters (fused_linear_jsd fp32 132x200000): the row kept over 16 CTAs at one an SM,
# settled as a pick is (its heavy first pass halved and filled by cp.async).
expect 0 "   x  L4096 m1 w16 v4 c16 Sa e" "<- set aside by drop_lone_clusters" -- \
	tune testdata/kernels/fused_linear_jsd.rk --shape 132x200000 --dtype f32 --top 1 --no-check \
	--copy-gbps 3000
expect 0 "TUNE kernel=softmax" -- tune testdata/kernels/softmax.rk --shape 4096x4096 --dtype bf16 \
	--top 1 --no-check --copy-gbps 3000 --batch-invariant
case $out in *"set aside"*) fail "tune: a set-aside candidate in the batch-invariant mode" ;; esac

# The seed as ranked, where settle_kept_chunk halved its r_block (rms_norm bf16 2048x151936: the
# ranking's L16384 at 2 CTAs an SM), in --json as cand "w"; none in the batch-invariant mode.
expect 0 ", then the seed as ranked" "   w  L16384 m1 w8 v8 c4 S e k2" \
	"<- the seed as ranked (before the settle rules)" -- \
	tune testdata/kernels/rms_norm.rk --shape 2048x151936 --dtype bf16 --top 1 --no-check \
	--copy-gbps 3000
case $out in *"L8192 m1 w8 v8 c4 S e k3 "*"<- seed (rkc)"*) ;; *) fail "tune: the seed is not L8192 c4 k3" ;; esac
expect 0 '"cand":"w"' -- tune testdata/kernels/rms_norm.rk --shape 2048x151936 --dtype bf16 \
	--top 1 --no-check --copy-gbps 3000 --json
expect 0 "TUNE kernel=rms_norm" -- tune testdata/kernels/rms_norm.rk --shape 2048x151936 \
	--dtype bf16 --top 1 --no-check --copy-gbps 3000 --batch-invariant
case $out in *"as ranked"*) fail "tune: the seed as ranked in the batch-invariant mode" ;; esac

# A persistent seed whose row has a tail: the seed with the other steps added, its min_ctas bound
# again (layer_norm fp32 2048x10240: the pick steps its tail at 2 CTAs an SM; the other, 1).
expect 0 ", then the seed with steps=0" "   t  P r10240 m1 w16 v4" "<- the seed with steps=0" -- \
	tune testdata/kernels/layer_norm.rk --shape 2048x10240 --dtype f32 --top 1 --no-check \
	--copy-gbps 3000
case $out in *"P r10240 m1 w16 v4 t k2 "*) ;; *) fail "tune: the seed is not P r10240 w16 t k2" ;; esac
expect 0 ", then the seed with steps=1" "   t  P r4096 m2 w8 v4 t k4" -- \
	tune testdata/kernels/layer_norm.rk --shape 2048x4096 --dtype f32 --top 1 --no-check \
	--copy-gbps 3000
expect 0 '"cand":"t"' -- tune testdata/kernels/layer_norm.rk --shape 2048x4096 --dtype f32 \
	--top 1 --no-check --copy-gbps 3000 --json

# Checked: the no-op launch leaves every output unwritten, so no candidate may be the best.
expect 1 "wrong results, not a candidate" "FAIL      <- seed (rkc)" \
	"no candidate ran and passed its check" "seed_rank=0 candidates=3 copy_gbps=3000 seed_status=FAIL" \
	"best_config=none" -- \
	tune $k --shape 64x128 --dtype f32 --top 1 --copy-gbps 3000
# The kernel from stdin, a BxLxN shape as B*L rows.
expect 0 "TUNE kernel=rms_norm dtype=f32 M=8 N=64" "seed_rank=1" -- \
	tune - --shape 2x4x64 --dtype f32 --top 1 --no-check --copy-gbps 3000 <$k

# --json: a line a candidate, then the TUNE line's fields.
expect 0 '"kind":"candidate"' '"seed":true' '"kind":"tune"' '"seed_rank":1' '"dtype":"bf16"' -- \
	tune $k --shape=64x128 --dtype bf16 --top 1 --no-check --copy-gbps 3000 --json
[ "$(printf '%s\n' "$out" | grep -vc '^{"')" = 0 ] || fail "tune --json: a line not JSON"

expect 0 "usage: rkc tune" -- tune --help
expect 0 "tune      On a GPU" -- --help
expect 2 "usage: rkc tune" -- tune $k --dtype bf16
expect 2 "--shape given twice ('64x128', then '8x64'); it takes one" -- tune $k --shape 64x128 --shape 8x64 --dtype bf16
expect 2 "--top takes 1 to 256, not '0'" -- tune $k --shape 64x128 --dtype bf16 --top 0
expect 2 "unknown option '--config'" -- tune $k --shape 64x128 --dtype bf16 --config vec=4
expect 2 "unsupported dtype 'f64' (expected bf16, fp16 or fp32)" -- tune $k --shape 64x128 --dtype f64
expect 2 "bad shape '64x'" -- tune $k --shape 64x --dtype bf16
expect 2 "--top needs a value (--top N)" -- tune $k --shape 64x128 --dtype bf16 --top
printf 'kernel broken(\n' >"$tmp/bad.rk"
expect 1 "bad.rk:" "error:" -- tune "$tmp/bad.rk" --shape 64x128 --dtype bf16
expect 1 "cannot open" -- tune "$tmp/missing.rk" --shape 64x128 --dtype bf16
RKC_LIBCUDA=/nonexistent/libcuda.so.1 expect 1 "no CUDA driver" -- \
	tune $k --shape 64x128 --dtype bf16 --top 1

# --list: the candidates tune times, in its order, with the model's times, and no GPU (the driver
# is missing) and nothing timed; the same candidates, each as the same config, as the timed run
# lists; with --json a usage error.
RKC_LIBCUDA=/nonexistent/libcuda.so.1 expect 0 "gated_rmsnorm bf16 200x98304: " \
	"candidates, not timed" "   1  L" "<- seed (rkc)" "   s  L2048 m1 w4 v8 c16 Sa e k9" \
	"<- the seed with stash=0" -- \
	tune testdata/kernels/gated_rmsnorm.rk --shape 200x98304 --dtype bf16 --top 3 --list
listed=$(printf '%s\n' "$out" | sed -n 's/^ *\([0-9a-z]*\)  \([PL][^ ]*\( [A-Za-z0-9][A-Za-z0-9]*\)*\)  *[0-9.]*.*/\1 \2/p' | sort)
case $out in *device:* | *TUNE*) fail "tune --list: timed something" ;; esac
expect 0 "TUNE kernel=gated_rmsnorm" -- tune testdata/kernels/gated_rmsnorm.rk --shape 200x98304 \
	--dtype bf16 --top 3 --no-check --copy-gbps 3000
timed=$(printf '%s\n' "$out" | sed -n 's/^ *[0-9-]*  *\([0-9a-z]*\)  \([PL][^ ]*\( [A-Za-z0-9][A-Za-z0-9]*\)*\)  *[0-9.]*.*/\1 \2/p' | sort)
if [ -n "$listed" ] && [ "$listed" = "$timed" ]; then
	passed=$((passed + 1))
else
	fail "tune --list lists other candidates than tune times:
$listed
--
$timed"
fi
expect 2 "--list prints a table; it takes no --json" -- tune $k --shape 64x128 --dtype bf16 \
	--list --json
# helion2828's pick of a kernel with a sum over rows, which it has no rule for: the model cannot
# price it (no number, "-" in the table, null in --json) and it fails to compile; every --json
# line is still a JSON object (a not-finite model_us once lost the record and crashed).
expect 0 "rkc tune: bias_grad bf16 8x131072: L" "<- helion2828" "TUNE kernel=bias_grad" -- \
	tune bench/heldout/bias_grad.rk --shape 8x131072 --dtype bf16 --top 1 --no-check \
	--copy-gbps 3000
printf '%s\n' "$out" | grep -Eq '^ +- +h +L[0-9]+ m1 w[0-9]+ v[0-9]+( e)? +- +- +- +- +- +ERROR ' &&
	passed=$((passed + 1)) || fail "tune: helion2828's unpriced pick"
expect 0 '"model_us":null' -- tune bench/heldout/bias_grad.rk --shape 8x131072 --dtype bf16 \
	--top 1 --no-check --copy-gbps 3000 --json
printf '%s\n' "$out" | grep -v '^rkc tune: ' | python3 -c '
import json, sys
for line in sys.stdin:
    json.loads(line)' && passed=$((passed + 1)) || fail "tune --json: a line not JSON"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
