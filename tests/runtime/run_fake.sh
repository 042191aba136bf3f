#!/bin/sh
# rkc run's whole path against a stand-in driver whose launches do nothing: compile, inputs,
# poison, launch, check (which must find every output unwritten), time, report.
# $1 is the rkc binary, $2 the stand-in driver library; run from the source root.
rkc=$1
export RKC_LIBCUDA=$2
data=tests/runtime/data

. "$(dirname "$0")/expect.sh"

# Compiled in process; the no-op launch leaves both poisons in place, so every element of both
# outputs differs between the two runs.
expect 1 "device: fake GPU, sm_90, 4 SMs, 1 MiB L2, driver CUDA 13.0" \
	"y          rel_l2" "8192 of 8192 unwritten  FAIL" "512 of 512 unwritten  FAIL" \
	"rstd       rel_l2" "64 of 64 unwritten  FAIL" \
	"RESULT kernel=rms_norm dtype=bf16 M=64 N=128 status=FAIL" \
	"RESULT kernel=rms_norm dtype=bf16 M=8 N=64 status=FAIL" -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --shape 2x4x64 --dtype bf16 --check
# Timing alone: 10 us between the fake's events, bytes counted once each way.
expect 0 "time 10.00 us" "status=unchecked" "us=10.00" "mbytes=0.1" -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype f32 --time --copy-gbps 3000
# Given PTX and manifest; an int8 output is compared within 1.
expect 1 "status=FAIL" -- \
	run testdata/kernels/rms_norm.rk --dtype bf16 --ptx $data/rms_norm.ptx --manifest $data/rms_norm.manifest.json --check
expect 1 "max_diff" "RESULT kernel=dynamic_quant dtype=f32 M=16 N=256 status=FAIL" -- \
	run testdata/kernels/dynamic_quant.rk --shape 16x256 --dtype f32 --check
expect 1 "--shape 32x128 does not match the manifest's 64x128" -- \
	run testdata/kernels/rms_norm.rk --shape 32x128 --dtype bf16 --ptx $data/rms_norm.ptx --manifest $data/rms_norm.manifest.json
expect 1 "manifest is for kernel 'rms_norm', not 'softmax'" -- \
	run testdata/kernels/softmax.rk --dtype bf16 --ptx $data/rms_norm.ptx --manifest $data/rms_norm.manifest.json
expect 1 "loading the PTX failed" "JIT log: fake JIT: no .entry in the PTX" -- \
	run testdata/kernels/rms_norm.rk --dtype bf16 --ptx $data/dists.rk --manifest $data/rms_norm.manifest.json
expect 1 "cuModuleGetFunction failed: CUDA_ERROR_FAKE" -- \
	run testdata/kernels/rms_norm.rk --dtype bf16 --ptx $data/softmax.ptx --manifest $data/rms_norm.manifest.json
# --json: a JSON object a line for each shape, in place of the report.
expect 0 '{"M":64,"N":128,' '"dtype":"fp32"' '"status":"unchecked"' '{"M":8,"N":64,' -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --shape=2x4x64 --dtype f32 --time --copy-gbps 3000 --json
[ "$(printf '%s\n' "$out" | grep -c '^{.*}$')" = 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 2 ] ||
	fail "run --json: two JSON lines and nothing else"
# Cooperative rows (coop=1): a cooperative launch, which the stand-in device refuses past 64 CTAs
# (13 rows of 5 CTAs), with the driver's own error.
expect 0 "status=unchecked" -- \
	run testdata/kernels/layer_norm.rk --shape 3x50257 --dtype f32 --arch sm_80 --time --copy-gbps 3000 \
	--config persistent=0,r_block=2048,num_warps=4,vec=4,cluster=5,coop=1
expect 1 "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE" "status=ERROR" -- \
	run testdata/kernels/layer_norm.rk --shape 13x50257 --dtype f32 --arch sm_80 --time --copy-gbps 3000 \
	--config persistent=0,r_block=2048,num_warps=4,vec=4,cluster=5,coop=1
# A grid of clusters with sums over rows is cooperative too; the driver holds it cluster by cluster
# (the stand-in device 16 clusters of 4), and the error says so in the grid's terms.
expect 1 "a cooperative grid of 128 CTAs must be resident at once" \
	"the device holds 16 clusters of 4 at once (64 CTAs): force a higher min_ctas" \
	"CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE" "status=ERROR" -- \
	run testdata/kernels/rms_norm_backward.rk --shape 64x4096 --dtype bf16 --time --copy-gbps 3000 \
	--config persistent=0,r_block=1024,num_warps=4,vec=8,cluster=4,grid=128,colpass=0
expect 0 "status=unchecked" -- \
	run testdata/kernels/rms_norm_backward.rk --shape 64x4096 --dtype bf16 --time --copy-gbps 3000 \
	--config persistent=0,r_block=1024,num_warps=4,vec=8,cluster=4,grid=64,colpass=0
# --regions: compiled with stamps, one more launch whose made-up stamps (fakecuda.c: CTA c
# from 10^6 + 1000c ns, region r lasting 50 + 5r ns) become the table; rms_norm persistent is
# load, combine0, body1 and rows, each block (a CTA) 230 ns, 64 over 63.23 us (64 row blocks:
# every one stamped); the fake's occupancy is two CTAs an SM, and its empty kernel (the
# launch's floor) takes 3 of the 10 us between two events. Without stamps written the runner
# says so; a manifest without regions is refused. The kernel's last stamp is in the PTX twice
# (LLVM copies it into the two blocks before its return, one on each path), so the words a slot
# are given: 2 + 4 boundaries.
RKC_FAKE_STAMPS=6
export RKC_FAKE_STAMPS
expect 0 "  regions: one launch, L2 flushed: kernel 10.00 us, stamps span 63.23 us, 64 row blocks stamped (1 in 1) by 64 CTAs, 0.2 resident on average, timer step 50 ns" \
	"  occupancy: 2 CTAs an SM x 4 SMs; 64 CTAs are 8.00 wave(s)" \
	"  load                    64      0.050      0.050      0.050   21.7%     13.746" \
	"  rows                    64      0.065      0.065      0.065   28.3%     17.869" \
	"per block: medians sum to 0.230 us (a block's median 0.230 us); 1.00 blocks a CTA: 0.230 us (2.3% of the kernel's time)" \
	"  launch floor: an empty kernel of this grid and block takes 3.00 us; the kernel less it: 7.00 us" \
	"  per CTA: the regions' medians over the 64 CTAs sum to 0.230 us (2.3% of the kernel's time, 3.3% of it less the floor); a CTA's life: median 0.230 us, max 0.230 us (2.3%)" \
	"kernel level: CTA-time over the CTAs resident on average sums to 63.230 us (632.3% of the kernel's time); dominant: rows (28.3%)" \
	"REGIONS kernel=rms_norm dtype=bf16 M=64 N=128 kernel_us=10.00 span_us=63.23 sum_med_us=0.230 block_med_us=0.230 blocks_per_cta=1.00 cta_us=0.230 dominant=rows share=28.3 tick_ns=50 ctas=64 blocks=64 every=1 sum_level_us=63.230 resident=0.2 per_sm=2 sms=4 grid=64 floor_us=3.00 lives_sum_med_us=0.230 life_med_us=0.230 life_max_us=0.230" \
	"RESULT kernel=rms_norm dtype=bf16 M=64 N=128 status=unchecked" -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --regions --config m_block=1
expect 0 '"regions":{"block_median_us":0.23,"blocks":64,"blocks_per_cta":1.0,"cta_us":0.23,"ctas":64,"dominant":"rows","every":1,' \
	'{"blocks":64,"cta_max_us":0.055,"cta_median_us":0.055,"kernel_level_us":15.12021739,"max_us":0.055,"mean_us":0.055,"median_us":0.055,"name":"combine0","share":0.2391304348}' \
	'"lives":{"ctas":64,"life_max_us":0.23,"life_median_us":0.23,"sum_median_us":0.23}' \
	'"floor_us":3.0' '"per_sm":2,"resident":0.2328008857' '"sum_kernel_level_us":63.23' '"waves":8.0' -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --regions --config m_block=1 --json
# Under a persistent grid of 3 CTAs a slot a row block, and a `between` region from a block's end
# to the loop's head (the fake's slot s is CTA s % 3's, 300 ns each): a CTA walks 64 / 3 blocks,
# CTA 0 22 of them (6.6 us, load 22 x 50 ns) and CTAs 1 and 2 21 (6.3 us, load 1.05 us): the
# median and max over CTAs of a CTA's time in each region. Sampled (--regions-every 2), a CTA's
# life is not measured.
RKC_FAKE_STAMPS=7
export RKC_FAKE_STAMPS
expect 0 "stamps span 8.30 us, 64 row blocks stamped (1 in 1) by 3 CTAs, 2.3 resident on average" \
	"  occupancy: 2 CTAs an SM x 4 SMs; 3 CTAs are 0.38 wave(s)" \
	"  region              blocks  median us    mean us     max us   share  kernel us CTA med us CTA max us    wait median/max us" \
	"  load                    64      0.050      0.050      0.050   16.7%      1.383      1.050      1.100" \
	"  between                 64      0.070      0.070      0.070   23.3%      1.937      1.470      1.540" \
	"per block: medians sum to 0.300 us (a block's median 0.300 us); 21.33 blocks a CTA: 6.400 us (64.0% of the kernel's time)" \
	"  per CTA: the regions' medians over the 3 CTAs sum to 6.300 us (63.0% of the kernel's time, 90.0% of it less the floor); a CTA's life: median 6.300 us, max 6.600 us (66.0%)" \
	"ctas=3 blocks=64 every=1 sum_level_us=8.300 resident=2.3 per_sm=2 sms=4 grid=3 floor_us=3.00 lives_sum_med_us=6.300 life_med_us=6.300 life_max_us=6.600" -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --regions --config m_block=1,grid=3
expect 0 '"cta_median_us":1.05' '"lives":{"ctas":3,"life_max_us":6.6,"life_median_us":6.3,"sum_median_us":6.3}' -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --regions --config m_block=1,grid=3 --json
expect 0 "  per CTA: not measured (a grid's blocks stamped 1 in 2; --regions-every 1 stamps every block)" \
	"every=2 sum_level_us=8.300" -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --regions --regions-every 2 --config m_block=1,grid=3
printf '%s\n' "$out" | grep -q "life_med_us" && fail "sampled grid: a CTA's life reported" ||
	passed=$((passed + 1))
RKC_FAKE_STAMPS=0
export RKC_FAKE_STAMPS
expect 1 "no CTA wrote its region stamps" "RESULT kernel=rms_norm dtype=bf16 shape=64x128 status=ERROR" -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --regions
expect 1 '"error":"error: no CTA wrote its region stamps' -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --regions --time --copy-gbps 3000 --json
unset RKC_FAKE_STAMPS
expect 1 "--regions: the manifest has no regions (compile with --regions)" -- \
	run testdata/kernels/rms_norm.rk --dtype bf16 --ptx $data/rms_norm.ptx --manifest $data/rms_norm.manifest.json --regions
# --pad: [M,N] rows N+P elements apart; the launch gets each array's stride after M and N (x and
# y: 136), and the stride rule holds or the point is refused before anything runs.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# --time --regions: the kernel without the stamps timed too, before and after the stamped one, on
# the stamped run's buffers: its launches take every argument but the last (the stamps' buffer),
# the same pointers
: >"$log"
RKC_FAKE_STAMPS=6 RKC_FAKECUDA_LOG=$log expect 0 \
	"  without the stamps, the same buffers: 10.00 us before and 10.00 after: the stamps +0.0%" \
	"life_max_us=0.230 plain_us=10.00 plain_after_us=10.00" -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --regions --time --copy-gbps 3000 --config m_block=1
plain=$(grep '^launch rms_norm ' "$log" | sed 's/.*args=//' | awk -F, 'NF == 9' | sort -u)
stamped=$(grep '^launch rms_norm ' "$log" | sed 's/.*args=//' | awk -F, 'NF == 10' | cut -d, -f1-9 | sort -u)
[ -n "$plain" ] && [ "$plain" = "$stamped" ] && passed=$((passed + 1)) ||
	fail "the plain kernel's launches: $(printf '%s\n' "$plain" | head -2) against $(printf '%s\n' "$stamped" | head -2)"
RKC_FAKE_STAMPS=6 expect 0 '"plain_us":[9.999999776,9.999999776]' -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --regions --time --copy-gbps 3000 --config m_block=1 --json
# Under the sampling rule (1024 row blocks: 1 in 16 stamped, two copies of the row code) every
# block stamped runs too, and the report is of the stamping that costs less against its plain
# kernel: a tie keeps the rule's; with the two-copy kernel's PTX timed slower, every block's.
# --regions-every runs the one asked for alone.
small="run testdata/kernels/rms_norm.rk --shape 1024x128 --dtype bf16 --regions --time --copy-gbps 3000 --config m_block=1,num_warps=1,vec=4"
RKC_FAKE_STAMPS=6 expect 0 \
	"  every block stamped instead: 10.00 us, 10.00 and 10.00 without: the stamps +0.0%, so the table is of 1 block in 16" \
	" every=16 " "other_every=1 other_us=10.00 other_plain_us=10.00 other_plain_after_us=10.00" -- $small
# the kernels over this many bytes of PTX (the two-copy one) take 12 us
slow=$("$rkc" compile testdata/kernels/rms_norm.rk --shape 1024x128 --dtype bf16 --config m_block=1,num_warps=1,vec=4 --regions --regions-every 1 -o - | wc -c)
RKC_FAKE_STAMPS=6 RKC_FAKE_SLOW=$slow expect 0 \
	"  1 block in 16 stamped instead: 12.00 us, 10.00 and 10.00 without: the stamps +20.0%, so the table is of every block" \
	" every=1 " "other_every=16 other_us=12.00" -- $small
RKC_FAKE_STAMPS=6 RKC_FAKE_SLOW=$slow expect 0 \
	'"other_stamping":{"every":16,"plain_us":[9.999999776,9.999999776],"us":12.0000001}' -- $small --json
RKC_FAKE_STAMPS=6 RKC_FAKE_SLOW=$slow expect 0 " every=16 " -- $small --regions-every 16
case $out in *other_every* | *instead:*) fail "--regions-every 16: a second stamping ran" ;; *) passed=$((passed + 1)) ;; esac
# A grid of clusters with sums over rows: a cluster launch that is cooperative too (3 bands of
# clusters of 2 CTAs; colpass=0, as the pick underneath takes the column pass, which waits for
# no other CTA).
RKC_FAKECUDA_LOG=$log expect 0 "status=unchecked" -- \
	run testdata/kernels/rms_norm_backward.rk --shape 7x4096 --dtype f32 --time --copy-gbps 3000 \
	--config persistent=0,r_block=1024,num_warps=4,vec=4,grid=6,cluster=2,colpass=0
tail -n 1 "$log" | grep -q "grid=6,1,1 block=128,1,1 .*cluster=2 cooperative" && passed=$((passed + 1)) ||
	fail "a grid of clusters: a cooperative cluster launch: $(tail -n 1 "$log")"
# The one slot (one band of a cluster of 2 walks every row and stores its sums itself): a cluster
# launch that is not cooperative.
RKC_FAKECUDA_LOG=$log expect 0 "status=unchecked" -- \
	run testdata/kernels/rms_norm_backward.rk --shape 7x4096 --dtype f32 --time --copy-gbps 3000 \
	--config persistent=0,r_block=1024,num_warps=4,vec=4,grid=2,cluster=2
tail -n 1 "$log" | grep "grid=2,1,1 block=128,1,1 .*cluster=2" | grep -vq cooperative &&
	passed=$((passed + 1)) || fail "the one slot: a cluster launch, not cooperative: $(tail -n 1 "$log")"
# A grid of cooperative bands (3 bands of 2 CTAs, coop=1): cooperative, clusters of 1; and one
# band walking every row (the one slot), cooperative still for the row's exchanges.
RKC_FAKECUDA_LOG=$log expect 0 "status=unchecked" -- \
	run testdata/kernels/rms_norm_backward.rk --shape 7x4096 --dtype f32 --time --copy-gbps 3000 \
	--config persistent=0,r_block=1024,num_warps=4,vec=4,grid=6,cluster=2,coop=1
tail -n 1 "$log" | grep -q "grid=6,1,1 block=128,1,1 .*cluster=1 cooperative" &&
	passed=$((passed + 1)) || fail "cooperative bands: a cooperative launch, no cluster: $(tail -n 1 "$log")"
RKC_FAKECUDA_LOG=$log expect 0 "status=unchecked" -- \
	run testdata/kernels/rms_norm_backward.rk --shape 7x4096 --dtype f32 --time --copy-gbps 3000 \
	--config persistent=0,r_block=1024,num_warps=4,vec=4,grid=2,cluster=2,coop=1
tail -n 1 "$log" | grep -q "grid=2,1,1 block=128,1,1 .*cluster=1 cooperative" &&
	passed=$((passed + 1)) || fail "one cooperative band: a cooperative launch: $(tail -n 1 "$log")"
RKC_FAKECUDA_LOG=$log expect 1 "[M,N] rows 136 elements apart (--pad 8), the padding poisoned" \
	"RESULT kernel=rms_norm dtype=bf16 M=64 N=128 status=FAIL" " pad=8 config=" -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --pad 8 --check
tail -n 1 "$log" | grep -q ",64,128,136,136$" && passed=$((passed + 1)) ||
	fail "--pad 8: the launch's strides: $(tail -n 1 "$log")"
RKC_FAKECUDA_LOG=$log expect 0 "status=unchecked" -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --time --copy-gbps 3000
tail -n 1 "$log" | grep -q ",64,128,128,128$" && passed=$((passed + 1)) ||
	fail "dense rows: the launch's strides: $(tail -n 1 "$log")"
expect 1 "error: 'x': row stride 131 breaks the manifest's stride rule: at least N=128 and stride % 8 == 0 (N plus a multiple of 8)" \
	"RESULT kernel=rms_norm dtype=bf16 shape=64x128 status=ERROR" -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --pad 3
# misaligned rows (N % vec != 0): strides are N plus a multiple of vec
expect 1 "'x': row stride 1004 breaks the manifest's stride rule: at least N=1001 and stride % 8 == 1" -- \
	run testdata/kernels/cross_entropy.rk --shape 4x1001 --dtype bf16 --pad 3 --config vec=8
expect 1 "[M,N] rows 1009 elements apart" "RESULT kernel=cross_entropy dtype=bf16 M=4 N=1001 status=FAIL" -- \
	run testdata/kernels/cross_entropy.rk --shape 4x1001 --dtype bf16 --pad 8 --config vec=8 --check
expect 1 "--pad 8: this manifest (version 1) has no row strides; compile again" -- \
	run testdata/kernels/rms_norm.rk --dtype bf16 --ptx $data/rms_norm.ptx --manifest $data/rms_norm.manifest.json --pad 8
# a launch that writes the padding between rows (the stand-in scribbles on every array) fails
# with the count, one launch's worth; dense rows have none to write
RKC_FAKE_SCRIBBLE=90 expect 1 "y          rel_l2" "512 padding element(s) written  FAIL" -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --pad 8 --check
RKC_FAKE_SCRIBBLE=90 expect 1 '"pad":8' '"pad_written":512' -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --pad 8 --check --json
out=$(RKC_FAKE_SCRIBBLE=90 "$rkc" run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --check 2>&1)
printf '%s\n' "$out" | grep -q "padding" && fail "dense rows: padding reported" || passed=$((passed + 1))
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
