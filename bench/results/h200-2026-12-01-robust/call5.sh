#!/bin/bash
# call 5: the sm_80 and sm_89 targets' picks and PTX (the A100's policy, no clusters: cooperative
# rows through the workspace, fp8 in software on sm_80), run on the H200, whose driver compiles
# their PTX for it: the testdata, held-out and round-2 generated kernels, checked against float64;
# memcheck on the testdata kernels at odd shapes for sm_80.
set -u
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc
KERNELS="$(ls testdata/kernels/*.rk bench/heldout/*.rk .carry/gen2/*.rk)"
export KERNELS
SHAPES="1x1 3x7 5x1000 37x4099 1000x896 4x151936 2x1048576 65536x64 300x8192 8x1000003" \
OUT=$OUT POLICIES=rkc ARCHS="sm_80 sm_89" DTYPES="bf16 f32" PAD=0 JOBS=14 MEMCHECK=0 \
	timeout 300 bash bench/robust_gpu.sh .carry/rkc .carry/gen2 > $OUT/robust-summary.txt 2>&1
echo "robust rc=$?" >> $OUT/robust-summary.txt
san() { timeout 80 compute-sanitizer --tool memcheck --error-exitcode 9 .carry/rkc run "$1" \
	--shape 3x7 --shape 37x4099 --shape 2x50257 --dtype bf16 --arch sm_80 --check \
	> "$OUT/san/$(basename $1).log" 2>&1 || echo "EXIT $? $1" >> "$OUT/san/$(basename $1).log"; }
export -f san; mkdir -p $OUT/san
ls testdata/kernels/*.rk | timeout 100 xargs -P 14 -L 1 bash -c 'san "$@"' _
cat $OUT/san/*.log > $OUT/memcheck.log; rm -rf $OUT/san
echo "memcheck sm_80: $(grep -c 'ERROR SUMMARY: 0 errors' $OUT/memcheck.log) clean of $(ls testdata/kernels/*.rk | wc -l); $(grep -c '^EXIT' $OUT/memcheck.log) exited non-zero" >> $OUT/robust-summary.txt
gzip -9 $OUT/robust.log $OUT/memcheck.log
cat $OUT/robust-summary.txt
