#!/bin/bash
# The cp.async fill's depth (FILL_AHEAD 2, 4, 8: three builds of d5edb3d with heuristics.h's FILL_AHEAD set, xz-compressed in
# .carry) at the smem=2 golden picks, and smem=2 at depths 2 and 8 against the register fill
# (smem=1) at the kept-row golden picks of 3 or more chunks (and every cross_entropy_backward
# one). One RESULT line a run in $OUT/fill.txt (committed as depth.txt), tagged "VARIANT".
set -u
B=/tmp/fb; mkdir -p $B
for a in 2 4 8; do xz -dc .carry/rkc-a$a.xz > $B/rkc-a$a; chmod +x $B/rkc-a$a; done
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader; } > $OUT/env.txt
log=$OUT/fill.txt; : > $log
start=$(date +%s)
run() { # VARIANT BIN CONFIG KERNEL DTYPE SHAPE [ARGS]
	local v=$1 bin=$2 cfg=$3 k=$4 dt=$5 sh=$6; shift 6
	local r
	r=$(timeout 120 $bin run testdata/kernels/$k.rk --dtype $dt --shape $sh --config $cfg --time --copy-gbps 4274 "$@" </dev/null 2>&1)
	echo "$k $dt $sh $v | $(printf '%s\n' "$r" | grep '^RESULT' | tail -1)$(printf '%s\n' "$r" | grep -q '^RESULT' || printf 'ERROR %s' "$(printf '%s' "$r" | tail -1)")" >> $log
}
while read -r tag k dt sh c1 c2; do
	[ $(( $(date +%s) - start )) -gt 500 ] && { echo "SKIP $k $dt $sh" >> $log; continue; }
	if [ $tag = fill2 ]; then
		run a2 $B/rkc-a2 $c1 $k $dt $sh
		run a4 $B/rkc-a4 $c1 $k $dt $sh --check
		run a8 $B/rkc-a8 $c1 $k $dt $sh --check
		run a8 $B/rkc-a8 $c1 $k $dt $sh
		run a4 $B/rkc-a4 $c1 $k $dt $sh
		run a2 $B/rkc-a2 $c1 $k $dt $sh
	else
		run pick $B/rkc-a2 $c1 $k $dt $sh
		run a2 $B/rkc-a2 $c2 $k $dt $sh
		run a8 $B/rkc-a8 $c2 $k $dt $sh --check
	fi
done < .carry/fill_pts.txt
# the deepest fill under the sanitizers at a small odd shape
for tool in memcheck racecheck synccheck; do
	timeout 120 compute-sanitizer --tool $tool $B/rkc-a8 run testdata/kernels/cross_entropy_backward.rk --dtype bf16 --shape 5x50257 \
		--config persistent=0,r_block=4096,m_block=1,num_warps=8,vec=8,smem=2,cluster=1,min_ctas=1 --check > $OUT/san-$tool-cross_entropy_backward.txt 2>&1
done
