#!/bin/bash
# The fill rule's moved picks (ab.sh: old forced, new the pick, checked), then the new class under
# the sanitizers at small odd shapes.
set -u
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader; } > $OUT/env.txt
LIMIT=360 COPY=4274 OUT=$OUT/ab bench/ab.sh .carry/rkc .carry/ab_pts.txt > $OUT/ab_stdout.txt 2>&1
tail -30 $OUT/ab_stdout.txt
for tool in memcheck racecheck synccheck; do
	for pt in "cross_entropy_backward f32 7x50257 persistent=0,r_block=4096,m_block=1,num_warps=8,vec=4,smem=2,cluster=4,min_ctas=1" \
		  "fused_linear_jsd f32 3x65537 persistent=0,r_block=4096,m_block=1,num_warps=4,vec=4,smem=2,cluster=4,min_ctas=1" \
		  "fused_linear_jsd bf16 5x50257 persistent=0,r_block=4096,m_block=1,num_warps=4,vec=8,smem=2,cluster=4,min_ctas=1"; do
		set -- $pt
		cfg=(); [ "$4" != pick ] && cfg=(--config $4)
		timeout 120 compute-sanitizer --tool $tool .carry/rkc run testdata/kernels/$1.rk --dtype $2 --shape $3 "${cfg[@]}" --check > $OUT/san-$tool-$1-$2.txt 2>&1
		echo "SAN $tool $1 $2 $3 rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool-$1-$2.txt | tail -1) ok=$(grep -c '^RESULT.*status=ok' $OUT/san-$tool-$1-$2.txt) $(grep -o 'config={[^}]*}' $OUT/san-$tool-$1-$2.txt | head -1)"
	done
done
