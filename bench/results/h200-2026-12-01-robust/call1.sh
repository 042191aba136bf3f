#!/bin/bash
# call 1: kernels no suite holds, checked against float64 on the GPU, and memcheck on the generated
# kernels with sums over rows. Run from the repository root, the static rkc at .carry/rkc.
set -u
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt
cs=$(grep -l colsum .carry/gen/*.rk)
KERNELS="$cs $(ls tests/heuristics/kernels/*.rk tests/analysis/plan/*.rk bench/heldout/*.rk) $(grep -L colsum .carry/gen/*.rk)"
export KERNELS
OUT=$OUT POLICIES=rkc PAD=5 JOBS=12 MEMCHECK=0 timeout 420 bash bench/robust_gpu.sh .carry/rkc .carry/gen > $OUT/robust-summary.txt 2>&1
echo "robust rc=$?" >> $OUT/robust-summary.txt
# memcheck, 12 at once: the generated kernels with a sum over rows, at few and odd rows
mc() { timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 .carry/rkc run "$1" \
	--shape 3x7 --shape 5x1000 --shape 64x4097 --shape 2x50257 --shape 300x8192 --dtype bf16 --check \
	> "$OUT/mc/$(basename $1).log" 2>&1 || echo "EXIT $? $1" >> "$OUT/mc/$(basename $1).log"; }
export -f mc; mkdir -p $OUT/mc
echo $cs | tr ' ' '\n' | xargs -P 12 -I{} bash -c 'mc {}'
cat $OUT/mc/*.log > $OUT/memcheck.log; rm -rf $OUT/mc
echo "memcheck: $(grep -c 'ERROR SUMMARY: 0 errors' $OUT/memcheck.log) clean of $(echo $cs | wc -w) kernels; $(grep -c '^EXIT' $OUT/memcheck.log) exited non-zero" >> $OUT/robust-summary.txt
gzip -9 $OUT/robust.log
cat $OUT/robust-summary.txt
