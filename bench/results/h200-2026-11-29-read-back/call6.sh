#!/bin/bash
# call 6: rkc tune at the few_rows points still under torch.compile (sum, long_sum, layer_norm)
mkdir -p $OUT
for p in "sum 1x4194304" "sum 37x262144" "long_sum 4x4194304" "long_sum 1x1000003" "layer_norm 37x4194304"; do
  set -- $p
  timeout 100 .carry/rkc tune testdata/kernels/$1.rk --shape $2 --dtype bf16 --top 16 --copy-gbps 4274 > $OUT/tune_$1_$2.txt 2>&1
  echo "== $1 $2"; head -9 $OUT/tune_$1_$2.txt | tail -6; tail -2 $OUT/tune_$1_$2.txt | head -1
done
