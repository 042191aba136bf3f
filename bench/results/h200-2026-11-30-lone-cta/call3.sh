#!/bin/bash
# call 3: rkc tune at the few_rows points still under torch.compile
R=.carry/rkc
while read -r k d s top; do
  timeout 100 $R tune testdata/kernels/$k.rk --shape $s --dtype $d --top $top --copy-gbps 4274 > $OUT/tune-$k-$d-$s.log 2>&1
  echo "$k $d $s: $(grep '^seed' $OUT/tune-$k-$d-$s.log | head -1)"
done <<'P'
sum f32 1x4194304 48
sum bf16 1x4194304 48
long_sum f32 1x1000003 48
long_sum bf16 4x4194304 48
long_sum f32 4x4194304 48
sum f32 37x262144 48
gated_rmsnorm f32 16x1000003 32
dynamic_quant f32 64x4194304 16
P
tar czf $OUT/tune-logs.tgz -C $OUT $(cd $OUT && ls tune-*.log) && rm -f $OUT/tune-*.log
