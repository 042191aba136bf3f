#!/bin/bash
# call 1: gelu_tanh_gated as written against 0.5g(1 + tanh k) written as g sigmoid(2k), same configs; regions of the norm backward at 4096x4096
R=.carry/rkc
K=testdata/kernels
mkdir -p $OUT/keep
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for d in bf16 fp32; do
  for s in 2048x14336 4095x21504 4096x16384 8192x24576 1000x4097 64x65536 4096x3000; do
    cfg=$($R explain $K/gelu_tanh_gated.rk --shape $s --dtype $d --json 2>/dev/null | python3 -c 'import json,sys; c=json.load(sys.stdin); print(",".join(f"{k}={int(c[k])}" for k in "persistent r_block m_block num_warps vec split evict min_ctas smem cluster coop grid dynamic ahead stash steps".split()))' 2>/dev/null)
    for k in $K/gelu_tanh_gated.rk .carry/s45/gelu_sig.rk $K/gelu_tanh_gated.rk .carry/s45/gelu_sig.rk; do
      $R run $k --shape $s --dtype $d --check --time --copy-gbps 4274 ${cfg:+--config $cfg} > /tmp/r.log 2>&1
      echo "$d $s $(basename $k) rc=$? $(grep -E 'RESULT' /tmp/r.log | head -1)"
      cat /tmp/r.log >> $OUT/keep/gelu.log
    done
  done
done | tee $OUT/keep/gelu-summary.txt | cut -c1-220
for k in layer_norm_backward rms_norm_backward; do
  $R run $K/$k.rk --shape 4096x4096 --dtype bf16 --regions --copy-gbps 4274 > $OUT/keep/regions-$k.log 2>&1
  tail -25 $OUT/keep/regions-$k.log | cut -c1-160
done
tar czf $OUT/keep.tgz -C $OUT keep && rm -rf $OUT/keep
