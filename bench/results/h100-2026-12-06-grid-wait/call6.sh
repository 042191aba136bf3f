#!/bin/bash
# call 6 (H100): the stamped copy starts with an empty statement with side effects (copy_fence,
# codegen/lower_sched.c), so LLVM hoists none of the two copies' common code above the sampling
# branch. The stamps' overhead at call 2's seven points (plain twice, the default sampling, every
# block), then plain against the default sampling at each kernel's largest shapes (issue 12
# bar 2: overhead at most 5% at shapes moving 64 MB or more).
set -u
# .carry/rkc-fence.xz: the release build of d0f80db with call6/fence.diff applied
xz -dc .carry/rkc-fence.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt
T0=$(date +%s)
pts="layer_norm_backward:4096x4096 rms_norm_backward:4096x4096 layer_norm_backward:8192x8192 rms_norm_backward:8192x8192 layer_norm_backward:4096x32768 cross_entropy_backward:8192x8192 layer_norm_backward:16384x4096"
for p in $pts; do
  k=${p%%:*}; s=${p#*:}
  for v in plain1 plain2 e0 e1; do
    a=(--check --time)
    case $v in e0) a+=(--regions);; e1) a+=(--regions --regions-every 1);; esac
    timeout 60 $R run testdata/kernels/$k.rk --shape $s --dtype bf16 --copy-gbps 3027 "${a[@]}" > /tmp/rg-$k.$s.$v.txt 2>&1
    echo "$k $s $v: exit $? $(grep -o 'time [0-9.]* us' /tmp/rg-$k.$s.$v.txt | head -1)" | tee -a $OUT/overhead.txt
  done
done
echo "points: $(( $(date +%s) - T0 )) s"
# each kernel's largest core/transfer shape and its largest of the long suites (the 44 of the
# H200's reading of 2026-12-04), plain and at the default sampling, until 400 s have gone
big="cross_entropy_backward:8192x8192 cross_entropy_ls_zloss:4096x128256 cross_entropy:4096x151936 dynamic_quant:16384x4096 fp8_quant:8192x8192 fused_add_layernorm:2048x16384 fused_add_rmsnorm:16384x4096 fused_linear_jsd:4096x50257 gated_rmsnorm:16384x4096 gelu_tanh_gated:8192x8192 grpo:8192x32000 jsd:2048x50257 kl_div:8192x32768 layer_norm_backward:8192x8192 layer_norm:2048x10240 long_sum:128x524288 rms_norm_backward:8192x8192 rms_norm:16384x1536 scaled_masked_softmax:131072x512 softmax:2048x40960 sum:4096x18432 welford:16384x7168 cross_entropy_backward:1024x262144 cross_entropy_ls_zloss:4096x128256 dynamic_quant:2048x201088 fp8_quant:16384x14336 fused_add_layernorm:1024x163840 fused_add_rmsnorm:37x4194304 gated_rmsnorm:1024x201088 gelu_tanh_gated:8192x24576 grpo:64x4194304 layer_norm:2048x152064 rms_norm_backward:4096x32768 rms_norm:2048x151936 scaled_masked_softmax:1024x163840 softmax:1024x262144 sum:64x4194304 welford:2048x163840"
for p in $big; do
  [ $(( $(date +%s) - T0 )) -gt 400 ] && echo "$p: not run (time)" >> $OUT/big.txt && continue
  k=${p%%:*}; s=${p#*:}
  for v in plain e0; do
    a=(--time); [ $v = e0 ] && a+=(--regions)
    timeout 40 $R run testdata/kernels/$k.rk --shape $s --dtype bf16 --copy-gbps 3027 "${a[@]}" > /tmp/rg-$k.$s.$v.txt 2>&1
    echo "$k $s $v: exit $? $(grep -o 'time [0-9.]* us' /tmp/rg-$k.$s.$v.txt | head -1)" >> $OUT/big.txt
  done
done
echo "total: $(( $(date +%s) - T0 )) s"
tar czf $OUT/logs.tgz -C / $(cd / && ls -d tmp/rg-*.txt) 2>/dev/null
cat $OUT/overhead.txt
python3 - $OUT/big.txt <<'PY'
import re, sys
d = {}
for l in open(sys.argv[1]):
    m = re.match(r'(\S+) (\S+) (\S+): exit 0 time ([\d.]+) us', l)
    if m: d.setdefault((m.group(1), m.group(2)), {})[m.group(3)] = float(m.group(4))
over = []
for k, v in d.items():
    if 'plain' in v and 'e0' in v:
        o = v['e0'] / v['plain'] - 1; over.append(o)
        print(f"{k[0]:24} {k[1]:14} {v['plain']:9.2f} {v['e0']:9.2f} {100*o:+6.1f}%")
print(f"{len(over)} shapes, over 5%: {sum(o > 0.05 for o in over)}")
PY
