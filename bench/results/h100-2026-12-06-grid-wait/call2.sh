#!/bin/bash
# call 2 (H100): the stamps' overhead (issue 12 bar 2) at the norm backward and
# cross_entropy_backward points over 5% on the H200 (plain twice, the default sampling, every
# block), with the colsum tail's regions; rkc tune at the one training point of issue 13 bar 2
# under 85% of copy (layer_norm_backward bf16 4096x4096) and at rms_norm_backward's; the wide_bwd
# suite against torch.compile at bf16. Run from the repository root; $OUT gets the logs.
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader > $OUT/env.txt
mkdir -p /tmp/rg
pts="layer_norm_backward:4096x4096 rms_norm_backward:4096x4096 layer_norm_backward:8192x8192 rms_norm_backward:8192x8192 layer_norm_backward:4096x32768 cross_entropy_backward:8192x8192 layer_norm_backward:16384x4096"
for p in $pts; do
  k=${p%%:*}; s=${p#*:}
  for v in plain1 plain2 e0 e1; do
    a=(--check --time)
    case $v in e0) a+=(--regions);; e1) a+=(--regions --regions-every 1);; esac
    timeout 60 $R run testdata/kernels/$k.rk --shape $s --dtype bf16 --copy-gbps 3027 "${a[@]}" > /tmp/rg/$k.$s.$v.txt 2>&1
    echo "$k $s $v: exit $? $(grep -o 'time [0-9.]* us' /tmp/rg/$k.$s.$v.txt | head -1)" | tee -a $OUT/overhead.txt
  done
done
tar czf $OUT/regions.tgz -C /tmp rg
for k in layer_norm_backward rms_norm_backward; do
  n=22; [ $k = rms_norm_backward ] && n=10
  timeout 120 $R tune testdata/kernels/$k.rk --shape 4096x4096 --dtype bf16 --top $n --copy-gbps 3027 > $OUT/tune_$k.txt 2>&1
  echo "tune $k: $?"
done
timeout 150 python3 bench/torch_compare.py --rkc $R --suites wide_bwd --dtype bf16 --shapes-per-kernel 6 \
  --copy-gbps 3027 --workdir /tmp/tcw --csv $OUT/tc_wide_bf16.csv > $OUT/tc_wide_bf16.txt 2>&1
echo "tc wide: $?"
cat $OUT/overhead.txt
grep -E "colsum|wait median" /tmp/rg/layer_norm_backward.4096x4096.e1.txt /tmp/rg/layer_norm_backward.4096x4096.e0.txt | cut -c1-160
for k in layer_norm_backward rms_norm_backward; do tail -30 $OUT/tune_$k.txt | cut -c1-140; done
tail -16 $OUT/tc_wide_bf16.txt | cut -c1-140
