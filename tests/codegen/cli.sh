#!/bin/sh
# rkc compile from the command line: outputs, determinism, -o -, errors leave nothing behind.
rkc=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

$rkc compile testdata/kernels/softmax.rk --shape 1000x50257 --dtype bf16 -o "$t/a.ptx" || fail "compile"
[ -s "$t/a.ptx" ] && [ -s "$t/a.json" ] || fail "a.ptx and a.json expected"
grep -q '"entry": "softmax"' "$t/a.json" || fail "manifest entry"
grep -q '"policy": "rkc"' "$t/a.json" || fail "manifest policy"
grep -q '^.visible .entry softmax(' "$t/a.ptx" || fail "PTX entry"
$rkc compile testdata/kernels/softmax.rk --shape 1000x50257 --dtype bf16 -o "$t/b.ptx" || fail "compile again"
cmp -s "$t/a.ptx" "$t/b.ptx" && cmp -s "$t/a.json" "$t/b.json" || fail "two compiles differ"

$rkc compile testdata/kernels/sum.rk --shape 8x4096 --dtype fp32 --arch sm_80 -o - >"$t/out" || fail "-o -"
grep -q '^.target sm_80' "$t/out" || fail "-o - prints the PTX"
[ ! -e ./-.json ] || fail "-o - writes no manifest"

$rkc compile testdata/kernels/layer_norm.rk --shape 64x4096 --dtype bf16 \
	--config persistent=0,r_block=1024,m_block=1,num_warps=4 --ptxas -o "$t/c.ptx" >"$t/report" || fail "--config --ptxas"
grep -q '^ptxas sm_90 layer_norm: [0-9]* registers, 0 bytes spill stores' "$t/report" || fail "ptxas report: $(cat "$t/report")"
grep -q '"persistent": false, "r_block": 1024' "$t/c.json" || fail "forced config in the manifest"
grep -q 'forced over the rkc policy' "$t/c.json" || fail "forced reason"

# sums over rows: every CTA waits at the combine, so the launch is cooperative; a row kernel's is not
$rkc compile testdata/kernels/layer_norm_backward.rk --shape 4096x4096 --dtype bf16 -o "$t/cs.ptx" || fail "colsum compile"
grep -q '"cooperative": true' "$t/cs.json" || fail "a colsum launch is cooperative"
grep -q '"name": "colsum_counters", "per_row": 0, "fixed": 8,' "$t/cs.json" || fail "colsum counters"
grep -q '"cooperative": false' "$t/a.json" || fail "a row kernel's launch is not cooperative"

# a grid's loads carried into its loop are read once before it (settle_carried, docs/codegen.md,
# "The carried loads' wait") where a band walks 3 or more blocks: 4096 rows over 264 CTAs, 15.5
# each; 4 rows of cooperating CTAs walk one block a band, and 100 rows two, with nothing added
grep -q 'setp.lt.s64 p, %rd[0-9]*, 0; @p st.global.b32 \[%rd[0-9]*\], %r[0-9]*; }' "$t/cs.ptx" ||
	fail "carried loads: no read before the grid's loop"
for s in 4x262144 100x28672; do
	$rkc compile testdata/kernels/layer_norm_backward.rk --shape $s --dtype bf16 -o "$t/few.ptx" || fail "compile $s"
	! grep -q 'st.global.b32' "$t/few.ptx" || fail "carried loads: a read before the loop at $s"
done

# --regions: a stamp per boundary (each warp's lane 0 reads %globaltimer into a red.global.max, no
# branch and no barrier), the buffer last in the manifest's params and the regions block; 1000 row
# blocks are sampled 1 in 15 (1000 / 64), so the row code is there twice, with and without the
# stamps; under a persistent grid a slot per row block and a `between` region; the same compile
# without it has neither.
$rkc compile testdata/kernels/softmax.rk --shape 1000x50257 --dtype bf16 --regions -o "$t/r.ptx" || fail "--regions"
grep -q 'mov.u64 t, %globaltimer; @p red.global.max.u64' "$t/r.ptx" || fail "--regions: no %globaltimer read"
[ "$(grep -c 'red.global.max.u64' "$t/r.ptx")" = 7 ] || fail "--regions: not 7 boundaries (6 regions)"
grep -q '"name": "regions", "kind": "regions", "type": "u64", "shape": "", "bytes": 64000}' "$t/r.json" ||
	fail "--regions: the buffer's parameter: $(grep regions "$t/r.json")"
grep -q '"layout": "u64 \[slot\]\[cta+1, boundary 0..n\]", "slot": "cta", "slots": 1000, "words": 8, "bytes_value": 64000, "group": 1, "every": 15' "$t/r.json" ||
	fail "--regions: the block: $(grep layout "$t/r.json")"
[ "$(grep -c 'bar.sync' "$t/r.ptx")" = "$((2 * $(grep -c 'bar.sync' "$t/a.ptx")))" ] ||
	fail "--regions: the row code not there twice"
$rkc compile testdata/kernels/softmax.rk --shape 1000x50257 --dtype bf16 --regions --config grid=264 -o "$t/r2.ptx" ||
	fail "--regions under a persistent grid"
grep -q '"slot": "row block", "slots": 1000, "words": 9' "$t/r2.json" && grep -q '"name": "between"' "$t/r2.json" ||
	fail "--regions, grid: $(grep layout "$t/r2.json")"
! grep -q 'globaltimer' "$t/a.ptx" && ! grep -q 'regions' "$t/a.json" || fail "stamps without --regions"
# a combine's results are the next stamp's operands (regions_after), so the arithmetic that makes
# them stays before it: layer_norm_backward's looped rows at 1024 threads (64 registers a thread),
# where LLVM had put the 32 warps' partials before the stamp and their sum after it, spilled 96
# bytes with every block stamped
$rkc compile testdata/kernels/layer_norm_backward.rk --shape 4096x16384 --dtype bf16 --regions \
	--regions-every 1 --config persistent=0,r_block=8192,m_block=1,num_warps=32,vec=8,evict=1,smem=2,grid=132 \
	--ptxas -o "$t/lr.ptx" >"$t/report" || fail "--regions, looped rows of 1024 threads"
grep -q '^ptxas sm_90 layer_norm_backward: [0-9]* registers, 0 bytes spill stores' "$t/report" ||
	fail "--regions, a combine's sum after its stamp: $(cat "$t/report")"

# welford over a row one CTA holds: two sums (the mean, then the squared distances), so no
# broadcast of a first lane's Chan merge and, over 4 warps, a barrier for each; a row over a
# cluster keeps Chan's merges (a reciprocal each, the first lane's result broadcast)
$rkc compile testdata/kernels/welford.rk --shape 1000x40 --dtype bf16 -o "$t/w1.ptx" || fail "welford compile"
! grep -q 'shfl.sync.idx' "$t/w1.ptx" || fail "welford in a warp: Chan's broadcast"
$rkc compile testdata/kernels/welford.rk --shape 1000x4096 --dtype bf16 \
	--config persistent=1,r_block=4096,m_block=1,num_warps=4 -o "$t/w2.ptx" || fail "welford compile"
! grep -q 'shfl.sync.idx' "$t/w2.ptx" && [ "$(grep -c 'bar.sync' "$t/w2.ptx")" = 2 ] ||
	fail "welford over 4 warps: not two sums"
$rkc compile testdata/kernels/welford.rk --shape 1000x4096 --dtype bf16 \
	--config persistent=1,r_block=4096,m_block=1,num_warps=4,cluster=2 -o "$t/w3.ptx" || fail "welford compile"
grep -q 'shfl.sync.idx' "$t/w3.ptx" || fail "welford over a cluster: no Chan merge"

# the stash: exp(x) computed once, kept in shared memory as f32 for the apply pass, which reads no
# x (so x is not kept): half the exps, and 4096 floats a row in place of 4096 bf16
for s in 0 1; do
	$rkc compile tests/analysis/plan/stash_exp.rk --shape 64x4096 --dtype bf16 \
		--config persistent=0,r_block=1024,m_block=1,num_warps=4,smem=1,stash=$s -o "$t/st$s.ptx" ||
		fail "stash=$s compile"
done
# (LLVM may unroll the 4 chunks of the compiled N: the ratio is what holds)
e0=$(grep -c ex2.approx "$t/st0.ptx") e1=$(grep -c ex2.approx "$t/st1.ptx")
[ "$e1" -gt 0 ] && [ "$e0" = $((2 * e1)) ] || fail "stash=1: the apply pass still computes exp ($e0, $e1)"
grep -q '"dynamic_smem": 8192,' "$t/st0.json" && grep -q '"dynamic_smem": 16384,' "$t/st1.json" ||
	fail "stash=1: the shared memory is not the stashed floats alone"
grep -q '"stash": 1,' "$t/st1.json" || fail "stash=1 in the manifest's config"

# steps=1: layer_norm's tail (the weight and bias loads, the output stores) a vector at a time, so
# the loads of 4 of its 5 vectors (two each) follow the first store; without it none does
for s in 0 1; do
	$rkc compile testdata/kernels/layer_norm.rk --shape 2048x10240 --dtype f32 \
		--config persistent=1,r_block=10240,m_block=1,num_warps=16,vec=4,steps=$s -o "$t/tl$s.ptx" ||
		fail "steps=$s compile"
done
late() { awk '/st\.global\.v4/ { st = 1 } st && /ld\.global\.nc/ { n++ } END { print n + 0 }' "$1"; }
[ "$(late "$t/tl0.ptx")" = 0 ] || fail "steps=0: a load after the tail's first store"
[ "$(late "$t/tl1.ptx")" = 8 ] || fail "steps=1: the tail's loads are not a vector at a time ($(late "$t/tl1.ptx"))"
grep -q '"steps": 1,' "$t/tl1.json" || fail "steps=1 in the manifest's config"
$rkc compile testdata/kernels/sum.rk --shape 64x4096 --dtype f32 --config steps=1 -o "$t/x.ptx" 2>"$t/err" &&
	fail "steps=1 on sum compiled"
grep -q "has no tail" "$t/err" || fail "steps=1 on sum: $(cat "$t/err")"

# log of max(x, 2^-126) is of no subnormal: the flush-to-zero lg2; a lower floor or none keeps the
# subnormal-safe one (4 elements a thread: 4 of each log)
$rkc compile tests/codegen/log_floor.rk --shape 8x1024 --dtype fp32 -o "$t/lf.ptx" || fail "log_floor compile"
[ "$(grep -c 'lg2.approx.ftz.f32' "$t/lf.ptx")" = 4 ] && [ "$(grep -c 'lg2.approx.f32' "$t/lf.ptx")" = 8 ] ||
	fail "log's lg2: flush-to-zero only over a floor of 2^-126"

# a dynamic grid on sm_100 takes its next block by cluster launch control: every row block
# launched (no cap), no work counter, ptxas takes it; on sm_90 the same config keeps the counter
dyn=persistent=1,r_block=1024,m_block=4,num_warps=8,vec=8,grid=528,dynamic=1,ahead=1
$rkc compile testdata/kernels/layer_norm.rk --shape 100000x1024 --dtype bf16 --arch sm_100 \
	--config $dyn --ptxas -o "$t/clc.ptx" >/dev/null || fail "sm_100 dynamic grid"
grep -q 'clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128' "$t/clc.ptx" &&
	grep -q '"formula": "cdiv(M,4)"}' "$t/clc.json" && grep -q '"workspace": null' "$t/clc.json" ||
	fail "sm_100 dynamic grid: no cluster launch control"
$rkc compile testdata/kernels/layer_norm.rk --shape 100000x1024 --dtype bf16 --config $dyn -o "$t/ctr.ptx" ||
	fail "sm_90 dynamic grid"
! grep -q 'clusterlaunchcontrol' "$t/ctr.ptx" && grep -q '"name": "work_counters"' "$t/ctr.json" &&
	grep -q '"formula": "min(cdiv(M,4),528)"' "$t/ctr.json" || fail "sm_90 dynamic grid: not the work counter"

if $rkc compile testdata/kernels/layer_norm.rk --shape 64x4096 --dtype bf16 --config split=2 \
	-o "$t/d.ptx" 2>"$t/err"; then fail "split on layer_norm accepted"; fi
grep -q "error: infeasible --config 'split=2'" "$t/err" || fail "infeasible message: $(cat "$t/err")"
[ ! -e "$t/d.ptx" ] && [ ! -e "$t/d.json" ] || fail "files left behind after an error"
[ -z "$(ls "$t" | grep tmp)" ] || fail "temporary files left behind"

if $rkc compile testdata/kernels/sum.rk --shape 8x4096 --dtype fp32 --arch sm_120 -o "$t/e.ptx" 2>"$t/err"; then
	fail "sm_120 accepted"
fi
grep -q -- "unsupported arch 'sm_120' (expected sm_80, sm_86, sm_89, sm_90 or sm_100)" "$t/err" || fail "arch message: $(cat "$t/err")"
# sm_100: emitted for sm_90, the header retargeted to PTX ISA 8.6 and sm_100; ptxas takes it.
$rkc compile testdata/kernels/softmax.rk --shape 16x151936 --dtype bf16 --arch sm_100 \
	--config cluster=4 --ptxas -o "$t/f.ptx" >"$t/report" || fail "sm_100 compile"
[ "$(grep -c -e '^\.version 8\.6$' -e '^\.target sm_100$' "$t/f.ptx")" = 2 ] ||
	fail "sm_100 header: $(head -8 "$t/f.ptx")"
! grep -q -e '^\.version 7' -e 'sm_90' "$t/f.ptx" || fail "sm_100 PTX names sm_90 or PTX 7.x"
grep -q '"arch": "sm_100"' "$t/f.json" || fail "sm_100 manifest"
grep -q '^ptxas sm_100 softmax: ' "$t/report" || fail "sm_100 ptxas report: $(cat "$t/report")"
# A kernel with no row reduction made whole in the column pass (colpass_whole): the rows make
# nothing, so a persistent row of 65536 f32 over 128 threads (128 loads a thread of each input
# when the rows run) leaves only the column pass's loads and stores, and no cooperative launch;
# the grid is the config's at any M ("columns"); --regions times each CTA's column pass, a slot
# a CTA: one region, two boundaries.
wc="tests/codegen/colpass_whole.rk --shape 2x65536 --dtype f32"
wk="persistent=1,r_block=65536,m_block=1,num_warps=4,vec=4,grid=64"
$rkc compile $wc --config $wk,colpass=1 -o "$t/wh.ptx" || fail "colpass_whole compile"
[ "$(grep -c 'ld.global' "$t/wh.ptx")" -lt 16 ] && [ "$(grep -c 'st.global' "$t/wh.ptx")" -lt 16 ] ||
	fail "colpass_whole: the rows still load or store"
grep -q '"cooperative": false' "$t/wh.json" || fail "colpass_whole: a cooperative launch"
grep -q '"grid": {"x": 64, .*"formula": "64", "cap": 64, "columns": true}' "$t/wh.json" ||
	fail "colpass_whole: the grid is not the config's"
$rkc compile $wc --config $wk,colpass=1 --regions -o "$t/wr.ptx" || fail "colpass_whole --regions"
[ "$(grep -c 'red.global.max.u64' "$t/wr.ptx")" = 2 ] || fail "colpass_whole --regions: not 2 boundaries"
grep -q '"slot": "cta", "slots": 64, "words": 3,' "$t/wr.json" &&
	grep -q '{"name": "colpass", "wait": false}' "$t/wr.json" ||
	fail "colpass_whole --regions: the slots are not its CTAs"
# Rows that start misaligned go element by element, their [M,N] stores a branch each: a trip of
# the column pass whose rows are all real and columns inside the row runs without one, so that
# its 4 rows' 16 element loads of dy share a basic block (an edge trip keeps one row's 4 a block).
$rkc compile tests/codegen/colpass_whole.rk --shape 4x65537 --dtype bf16 -o "$t/wm.ptx" \
	--config persistent=1,r_block=65792,m_block=1,num_warps=8,vec=1,grid=64,colpass=1 ||
	fail "colpass_whole misaligned compile"
most=$(awk '/^\$L__/ { n = 0 } /ld\.global\.nc\.u16/ { if (++n > m) m = n } END { print m + 0 }' "$t/wm.ptx")
[ "$most" -ge 16 ] || fail "colpass_whole misaligned: at most $most element loads a block, not a trip's 16"
if $rkc compile testdata/kernels/sum.rk --shape 8x0 --dtype fp32 -o "$t/e.ptx" 2>/dev/null; then fail "N=0 accepted"; fi
if $rkc compile testdata/kernels/sum.rk --shape 8x8 -o "$t/e.ptx" 2>/dev/null; then fail "no dtype accepted"; fi
echo ok
