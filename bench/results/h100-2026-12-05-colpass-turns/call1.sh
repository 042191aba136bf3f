#!/bin/bash
# call 1 (81st session): kernels whose column pass makes the whole kernel (colpass_whole) or that
# store only their colsums (colsum_only), at 256-4096 rows: the pick (the column pass) against the
# candidate drop_streamed_colsums sets aside (rows streamed, partials in shared memory). Points
# from .carry/s81/gen.py (rkc tune --list), 44 of 120 drawn at random.
set -u
xz -dc .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
COPY=3027; grep -q H200 $OUT/device.txt && COPY=4274
T0=$(date +%s)
K=tests/heuristics/kernels/bias_silu_back.rk
for c in pick "ahead=0,cluster=1,colpass=0,coop=0,dynamic=0,evict=0,grid=264,m_block=1,min_ctas=2,num_warps=8,persistent=0,r_block=4096,smem=0,split=1,stash=0,steps=0,vec=1"; do
  a=(); [ $c != pick ] && a=(--config $c)
  timeout 60 /tmp/rkc run $K --dtype fp32 --shape 2000x20011 "${a[@]}" --time --regions --copy-gbps $COPY > $OUT/regions-$([ $c = pick ] && echo pick || echo rows).txt 2>&1
done
echo "regions: $(( $(date +%s) - T0 )) s"
OUT=$OUT/ab COPY=$COPY LIMIT=$(( 380 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s81/points.txt > $OUT/ab_table.txt 2>&1
cat $OUT/ab_table.txt | cut -c1-200
echo "total: $(( $(date +%s) - T0 )) s"
