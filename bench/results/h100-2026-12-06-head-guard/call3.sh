#!/bin/bash
# call 3 (H100), the build of 7f0b0e5: issue 11's tiny-rows points under 0.97x of torch.compile
# (2026-12-06 call 7): rkc tune's 24 best-ranked configs at each, every one checked against
# float64; torch.compile against rkc's pick at those kernels' tiny-rows shapes; then plain against
# the default sampling of --regions at each kernel's largest shapes until 540 s have gone.
# Run from the repository root.
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt
T0=$(date +%s)
mkdir -p $OUT/tune
for p in rms_norm:f32:65536x32 fused_add_layernorm:f32:100003x40 fused_add_layernorm:bf16:100003x40 fused_add_rmsnorm:bf16:65536x96 rms_norm:bf16:65536x32; do
  IFS=: read -r k d s <<< "$p"
  timeout 90 $R tune testdata/kernels/$k.rk --shape $s --dtype $d --top 24 --copy-gbps 3027 > $OUT/tune/$k.$d.$s.txt 2>&1
  echo "tune $p: exit $? $(( $(date +%s) - T0 )) s"
done
for d in f32 bf16; do
  timeout 120 python3 bench/torch_compare.py --rkc $R --suites tiny_rows --dtype $d --kernels rms_norm,fused_add_layernorm,fused_add_rmsnorm \
    --shapes-per-kernel 4 --copy-gbps 3027 --workdir /tmp/tcw --csv $OUT/tc_tiny_$d.csv > $OUT/tc_tiny_$d.txt 2>&1
  echo "tc $d: exit $? $(( $(date +%s) - T0 )) s"
done
big="layer_norm_backward:8192x8192 rms_norm_backward:8192x8192 cross_entropy_backward:8192x8192 rms_norm_backward:4096x32768 long_sum:128x524288 fused_add_layernorm:2048x16384 layer_norm:2048x10240 kl_div:8192x32768 rms_norm:16384x1536 sum:4096x18432 softmax:2048x40960 welford:16384x7168 gated_rmsnorm:16384x4096 cross_entropy:4096x151936 dynamic_quant:16384x4096 fused_add_rmsnorm:16384x4096"
for p in $big; do
  [ $(( $(date +%s) - T0 )) -gt 540 ] && echo "$p: not run (time)" >> $OUT/big.txt && continue
  k=${p%%:*}; s=${p#*:}
  for v in plain e0; do
    a=(--time); [ $v = e0 ] && a+=(--regions)
    timeout 40 $R run testdata/kernels/$k.rk --shape $s --dtype bf16 --copy-gbps 3027 "${a[@]}" > /tmp/rg-$k.$s.$v.txt 2>&1
    echo "$k $s $v: exit $? $(grep -o 'time [0-9.]* us' /tmp/rg-$k.$s.$v.txt | head -1)" >> $OUT/big.txt
  done
done
echo "total: $(( $(date +%s) - T0 )) s"
for f in $OUT/tune/*.txt; do echo "== $f"; tail -32 $f | cut -c1-120; done
for d in f32 bf16; do tail -16 $OUT/tc_tiny_$d.txt | cut -c1-130; done
python3 - $OUT/big.txt <<'PY'
import re, sys
d = {}
for l in open(sys.argv[1]):
    m = re.match(r'(\S+) (\S+) (\S+): exit 0 time ([\d.]+) us', l)
    if m: d.setdefault((m.group(1), m.group(2)), {})[m.group(3)] = float(m.group(4))
for k, v in d.items():
    if 'plain' in v and 'e0' in v:
        print(f"{k[0]:24} {k[1]:14} {v['plain']:9.2f} {v['e0']:9.2f} {100*(v['e0']/v['plain']-1):+6.1f}%")
PY
