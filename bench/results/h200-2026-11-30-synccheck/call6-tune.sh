#!/bin/bash
# rkc tune at the tiny-row points under torch.compile, and gated_rmsnorm bf16 8192x768
R=.carry/rkc
while read -r k d s; do
  timeout 150 $R tune testdata/kernels/$k.rk --shape $s --dtype $d --top 48 --copy-gbps 4274 > $OUT/tune-$k-$d-$s.log 2>&1
  echo "$k $d $s: $(grep '^TUNE' $OUT/tune-$k-$d-$s.log | head -1)"
done <<'P'
rms_norm f32 65536x32
dynamic_quant f32 1048576x32
rms_norm bf16 65536x32
rms_norm bf16 100003x128
rms_norm bf16 262144x200
fused_add_layernorm f32 100003x40
layer_norm bf16 100003x256
welford bf16 262144x256
fused_add_rmsnorm bf16 65536x96
gated_rmsnorm bf16 8192x768
P
tar czf $OUT/tune-logs.tgz $OUT/tune-*.log 2>/dev/null; rm -f $OUT/tune-*.log
