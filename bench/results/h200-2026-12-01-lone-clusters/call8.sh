#!/bin/bash
# call 8: rkc tune at the torch.compile tables' points under 0.97x (issue 11 bar 4): is it the pick or the code?
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
for p in "gated_rmsnorm bf16 8192x768" "fused_add_layernorm bf16 8192x768" "fused_add_layernorm bf16 16384x1024" "layer_norm f32 4096x2048"; do
  set -- $p
  timeout 60 $R tune testdata/kernels/$1.rk --shape $3 --dtype $2 --top 24 --no-check --copy-gbps 4274 > $OUT/tune-$1-$2-$3.txt 2>&1
  head -8 $OUT/tune-$1-$2-$3.txt | tail -5 | cut -c1-110; grep "^seed" $OUT/tune-$1-$2-$3.txt | cut -c1-160
done
