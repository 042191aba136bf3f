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
# --regions: compiled with stamps, one more launch whose made-up stamps (fakecuda.c: region r
# lasts 50 + 5r ns, 100 ns apart) become the table; rms_norm persistent is load, combine0, body1
# and rows, each CTA 365 ns. Without stamps written the runner says so; a manifest without
# regions is refused.
expect 0 "  regions: one launch, L2 flushed: kernel 10.00 us" "timer step 40 ns" \
	"  load                    64      0.050      0.050      0.050   13.7%" \
	"  rows                    64      0.065      0.065      0.065   17.8%" \
	"medians sum to 0.230 us (2.3% of the kernel's time); a CTA's median 0.365 us; dominant: rows (17.8%)" \
	"REGIONS kernel=rms_norm dtype=bf16 M=64 N=128 kernel_us=10.00 span_us=63.37 sum_med_us=0.230 cta_med_us=0.365 dominant=rows share=17.8 tick_ns=40 ctas=64" \
	"RESULT kernel=rms_norm dtype=bf16 M=64 N=128 status=unchecked" -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --regions --config m_block=1
expect 0 '"regions":{"cta_median_us":0.365,"ctas":64,"dominant":"rows",' \
	'{"ctas":64,"max_us":0.055,"mean_us":0.055,"median_us":0.055,"name":"combine0","share":0.1506849315}' -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --regions --config m_block=1 --json
RKC_FAKE_STAMPS=0
export RKC_FAKE_STAMPS
expect 1 "no CTA wrote its region stamps" "RESULT kernel=rms_norm dtype=bf16 shape=64x128 status=ERROR" -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --regions
expect 1 '"error":"error: no CTA wrote its region stamps' -- \
	run testdata/kernels/rms_norm.rk --shape 64x128 --dtype bf16 --regions --time --copy-gbps 3000 --json
unset RKC_FAKE_STAMPS
expect 1 "--regions: the manifest has no regions (compile with --regions)" -- \
	run testdata/kernels/rms_norm.rk --dtype bf16 --ptx $data/rms_norm.ptx --manifest $data/rms_norm.manifest.json --regions
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
