#!/bin/bash
# The bands (H100): a persistent grid of bands of cooperating CTAs walking the rows of a kernel
# without sums over rows (the branch l2-bands, .carry/rkc-bands.xz). The sanitizers on the mode
# at odd shapes; then two A/Bs of main's pick forced (old) against the branch's pick (new): the 29
# sm_90 golden points whose pick moves, smallest first, and 24 points of the class drawn at random
# (drawpts.py, seed 1207). Run from the repository root.
set -u
xz -dc .carry/rkc-bands.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt
D=bench/results/h100-2026-12-07-bands
san() { timeout 50 compute-sanitizer --tool $1 --error-exitcode 9 /tmp/rkc run testdata/kernels/$2.rk \
	--dtype $3 --shape $4 --check --config $5 > $OUT/san/$2-$1-$3-$4.log 2>&1 || echo "EXIT $? $*" >> $OUT/san/$2-$1-$3-$4.log; }
export -f san; mkdir -p $OUT/san
B=persistent=0,r_block=1024,m_block=1,num_warps=4,vec=8,split=1,evict=1,min_ctas=1,cluster=8,grid=24,coop=1
for t in memcheck racecheck synccheck; do
	echo "$t dynamic_quant bf16 7x50257 $B,smem=0"; echo "$t softmax bf16 5x50257 $B,smem=1"
	echo "$t layer_norm fp32 9x30011 ${B/vec=8/vec=4},smem=0"; echo "$t welford fp16 4x65537 $B,smem=1"
done | timeout 75 xargs -P 12 -L 1 bash -c 'san "$@"' _
cat $OUT/san/*.log > $OUT/sanitizers.log; rm -rf $OUT/san
echo "sanitizers: $(grep -c 'ERROR SUMMARY: 0 errors\|RACECHECK SUMMARY: 0 hazards' $OUT/sanitizers.log) clean of 12; $(grep -c '^EXIT' $OUT/sanitizers.log) exited non-zero; checks ok $(grep -c 'status=ok' $OUT/sanitizers.log)" > $OUT/san-summary.txt
LIMIT=200 COPY=3027 OUT=$OUT/ab bash bench/ab.sh /tmp/rkc $D/bands-ab-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/bands-table.txt 2>&1; gzip -9 $OUT/ab/ab.txt
LIMIT=110 COPY=3027 OUT=$OUT/abd bash bench/ab.sh /tmp/rkc $D/bands-drawn-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/abd/ab.txt > $OUT/bands-drawn-table.txt 2>&1; gzip -9 $OUT/abd/ab.txt
cat $OUT/san-summary.txt $OUT/bands-table.txt $OUT/bands-drawn-table.txt
