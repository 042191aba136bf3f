#!/bin/bash
# call 8: --regions on grids of bands (cooperative and hardware clusters), sampled and every block
R=.carry/rkc
K=testdata/kernels
for c in "layer_norm_backward.rk --shape 4x262144 --dtype bf16" "rms_norm_backward.rk --shape 1x262144 --dtype bf16" \
         "layer_norm_backward.rk --shape 100x65536 --dtype f32" "rms_norm_backward.rk --shape 37x131072 --dtype bf16"; do
  for e in "" "--regions-every 1"; do
    echo "== $c --regions $e"
    $R run $K/$c --regions $e --time --copy-gbps 4274 2>&1 | grep -v "^RESULT" | tail -22
  done
done
