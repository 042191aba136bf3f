#!/bin/sh
# The kernel rkc run --time flushes the L2 with (runtime/cuda.c) is PTX text in the runtime: this
# runs a timed point against the stand-in driver, which saves every module it loads, and has
# ptxas assemble the flush kernel for sm_80 and sm_90. $1 is the rkc binary, $2 the stand-in
# driver library, $3 a scratch directory in the build tree; run from the source root.
rkc=$1
dir=$3
rm -rf "$dir" && mkdir -p "$dir" || exit 1
RKC_LIBCUDA=$2 RKC_FAKE_PTX_DIR=$dir "$rkc" run testdata/kernels/sum.rk --shape 8x256 \
	--dtype f32 --time --copy-gbps 3000 >"$dir/run.log" 2>&1 || { cat "$dir/run.log"; exit 1; }
[ -s "$dir/rkc_flush.ptx" ] || { echo "FAIL: no rkc_flush module was loaded"; exit 1; }
for arch in sm_80 sm_90; do
	ptxas -arch=$arch "$dir/rkc_flush.ptx" -o "$dir/rkc_flush.$arch.cubin" ||
		{ echo "FAIL: ptxas -arch=$arch rejects the flush kernel"; exit 1; }
done
echo "ok: the flush kernel assembles for sm_80 and sm_90"
