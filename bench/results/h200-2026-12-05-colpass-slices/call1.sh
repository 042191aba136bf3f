#!/bin/bash
# call 1: fresh rkc tune at the replay's farthest points, current build
set -u
xz -dc .carry/cur.xz > /tmp/rkc && chmod +x /tmp/rkc
R=/tmp/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader > $OUT/device.txt
H=bench/heldout
pts=(
"$H/rms_colsum.rk bf16 4096x131072"
"$H/rms_colsum.rk bf16 4096x262144"
"$H/rms_colsum.rk fp32 2048x65536"
"$H/dequant.rk bf16 16384x1024"
"tests/codegen/colpass_whole.rk bf16 1024x131072"
"tests/codegen/colpass_whole.rk bf16 256x28673"
"tests/heuristics/kernels/bias_silu_back.rk fp32 2000x20011"
"$H/colonly.rk fp32 16x1000003"
"$H/bias_grad.rk bf16 2048x4096"
"testdata/kernels/gated_rmsnorm.rk fp32 1x32768"
"testdata/kernels/gated_rmsnorm.rk bf16 4096x32768"
"$H/colonly.rk bf16 262144x64"
"testdata/kernels/grpo.rk bf16 1048576x16"
"$H/gelu_layernorm.rk bf16 131072x200"
"testdata/kernels/sum.rk bf16 1048576x16"
"$H/cosine.rk fp32 8x1000003"
)
COPY=""
for p in "${pts[@]}"; do
  set -- $p
  n=$(basename $1 .rk)_$2_$3
  timeout 120 $R tune $1 --dtype $2 --shape $3 --top 16 $COPY > /tmp/t.txt 2>&1; { echo "=== $n"; cat /tmp/t.txt; } >> $OUT/tune_all.txt
  if [ -z "$COPY" ]; then c=$(grep -o 'copy_gbps=[0-9.]*' /tmp/t.txt | cut -d= -f2); [ -n "$c" ] && COPY="--copy-gbps $c"; fi
  grep '^seed\|^TUNE' /tmp/t.txt | head -1 | sed "s|^|$n: |"
done 2>&1 | tee $OUT/summary.txt
