#!/bin/bash
# call 7: rkc tune at the two bf16 points of the core+transfer table furthest under copy bandwidth
# after fused_linear_jsd (information for the next rule; no pick changes on it)
R=.carry/rkc
for p in "dynamic_quant bf16 2048x16384" "softmax bf16 2048x40960"; do
  set -- $p
  timeout 150 $R tune testdata/kernels/$1.rk --shape $3 --dtype $2 --top 32 --copy-gbps 4274 > $OUT/tune-$1-$2-$3.log 2>&1
  head -8 $OUT/tune-$1-$2-$3.log | tail -5 | cut -c1-110; grep '^seed' $OUT/tune-$1-$2-$3.log
done
