#!/bin/bash
# kernel N m_block num_warps -> ptxas regs (min_ctas=1) vs predicted, bf16, persistent
t=$(mktemp -d) || exit 1; trap 'rm -rf "$t"' EXIT
for k in rms_norm layer_norm welford softmax fused_add_rmsnorm gated_rmsnorm dynamic_quant sum cross_entropy; do
 for cfg in "128 16" "8 8" "1 4"; do set -- $cfg; m=$1; w=$2; tpr=$((32*w/m))
  for n in 17 24 100 104 250 256 1000 1008; do
   rb=$tpr; while [ $rb -lt $n ]; do rb=$((rb*2)); done; [ $rb -lt $((tpr*8)) ] && rb=$((tpr*8))
   c="persistent=1,r_block=$rb,m_block=$m,num_warps=$w,vec=8,min_ctas=1"
   ./build/rkc compile testdata/kernels/$k.rk --shape 4096x$n --dtype bf16 --config $c -o "$t"/r.ptx >/dev/null 2>&1 || continue
   u=$(ptxas -arch=sm_90 -v "$t"/r.ptx -o /dev/null 2>&1 | grep -o "Used [0-9]* registers" | grep -o "[0-9]*")
   p=$(./build/rkc explain testdata/kernels/$k.rk --shape 4096x$n --dtype bf16 --config $c | grep -o "predicted [0-9]* regs" | grep -o "[0-9]*")
   echo "$k $n tpr=$tpr ept=$((rb/tpr)) ptxas=$u pred=$p"
  done
 done
done
