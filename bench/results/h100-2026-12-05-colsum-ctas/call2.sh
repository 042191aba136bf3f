#!/bin/bash
# call 2 (79th session): the sums over rows priced at the CTAs an SM min_ctas binds (colsum_ctas,
# heuristics/cost.c). Old pick forced (--config) against the new pick, one build, at the picks it
# moves (points.txt); memcheck at two moved picks of odd shapes; then the colpass runs experiment
# at rms_colsum bf16 (grids 396/373/264 at 3 CTAs an SM) in what time is left.
set -u
xz -dc .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
T0=$(date +%s)
S=$OUT/memcheck.txt
while false; do
  echo "### $k $d $s" >> $S
  timeout 60 compute-sanitizer --tool memcheck /tmp/rkc run $k --dtype $d --shape $s --check >> $S 2>&1
  echo "$k $d $s: $(grep '^RESULT' $S | tail -1 | grep -o 'status=[a-zA-Z]*') $(grep 'ERROR SUMMARY' $S | tail -1)"
done < .carry/s79/memcheck.txt
OUT=$OUT/ab COPY=4274 LIMIT=$(( 380 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s79/points.txt > $OUT/ab_table.txt 2>&1
tail -4 $OUT/ab_table.txt
one() {
  local a=""; [ "$4" != pick ] && a="--config $4"
  local r=$(timeout 60 /tmp/rkc run $1 --dtype $2 --shape $3 $a --time --copy-gbps 4274 2>&1 | grep '^RESULT' | tail -1)
  echo "$(basename $1 .rk) $2 $3 $4 :: ${r:-NONE}"
}
for M in 4096; do for c in persistent=0,r_block=16384,m_block=1,num_warps=16,vec=4,evict=1,colpass=1,ahead=0,grid=396,min_ctas=3 persistent=0,r_block=16384,m_block=1,num_warps=16,vec=4,evict=1,colpass=1,ahead=0,grid=373,min_ctas=3 persistent=0,r_block=16384,m_block=1,num_warps=16,vec=4,evict=1,colpass=1,ahead=0,grid=264,min_ctas=3 persistent=0,r_block=16384,m_block=1,num_warps=16,vec=4,evict=1,colpass=1,ahead=0,grid=264,min_ctas=2; do
  [ $(( $(date +%s) - T0 )) -gt 440 ] && break 2
  one bench/heldout/rms_colsum.rk bf16 ${M}x131072 $c
done; done > $OUT/runs.txt 2>&1
cut -c1-200 $OUT/runs.txt | sed 's/config=.*//'
