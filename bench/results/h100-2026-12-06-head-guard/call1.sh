#!/bin/bash
# call 1 (H100): the stamps at a grid's loop head behind one uniform branch on whether the CTA's
# last block was stamped, and every stamp's timer read unpredicated (its predicated read kept a
# register pair live per stamp). memcheck and racecheck with --regions at the new grid-wait
# regions (colsum.wait, colpass.wait) and the head; the overhead at the seven points of
# 2026-12-06's call 6 (plain twice, the default sampling, every block); then plain against the
# default sampling at each kernel's largest shapes (issue 12 bar 2). Run from the repository root.
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt
$R --version >> $OUT/env.txt 2>&1
T0=$(date +%s)
mkdir -p $OUT/san
san="testdata/kernels/layer_norm_backward.rk:41x512:bf16:persistent=1,r_block=512,m_block=1,num_warps=2,vec=8,grid=3,ahead=2,colpass=1
bench/heldout/rms_colsum.rk:300x512:bf16:persistent=1,r_block=512,m_block=1,num_warps=2,vec=4,grid=7,colpass=1
bench/heldout/quant_err_cols.rk:500x200:bf16:persistent=1,r_block=256,m_block=2,num_warps=1,vec=4,grid=9,colpass=1
testdata/kernels/layer_norm_backward.rk:300x16:bf16:persistent=1,r_block=32,m_block=4,num_warps=1,vec=4,grid=17,colpass=1
testdata/kernels/rms_norm_backward.rk:333x1000:f32:persistent=1,r_block=1024,m_block=2,num_warps=4,vec=4,grid=20,ahead=3
testdata/kernels/layer_norm_backward.rk:1000x4096:bf16:
testdata/kernels/cross_entropy_backward.rk:1000x8192:bf16:"
for p in $san; do
  IFS=: read -r k s d c <<< "$p"
  cfg=(); [ -n "$c" ] && cfg=(--config $c)
  n=$(basename $k .rk).$s.$d
  for e in 1 0; do
    ev=(); [ $e = 1 ] && ev=(--regions-every 1)
    timeout 60 compute-sanitizer --tool memcheck $R run $k --shape $s --dtype $d "${cfg[@]}" --check --regions "${ev[@]}" > $OUT/san/memcheck.$n.e$e.txt 2>&1
    echo "memcheck $n every=$e: $(grep -o 'status=[a-z]*' $OUT/san/memcheck.$n.e$e.txt | head -1) $(grep 'ERROR SUMMARY' $OUT/san/memcheck.$n.e$e.txt | tail -1)" | tee -a $OUT/san.txt
  done
  timeout 90 compute-sanitizer --tool racecheck $R run $k --shape $s --dtype $d "${cfg[@]}" --check --regions --regions-every 1 > $OUT/san/racecheck.$n.txt 2>&1
  echo "racecheck $n every=1: $(grep -o 'status=[a-z]*' $OUT/san/racecheck.$n.txt | head -1) $(grep 'ERROR SUMMARY' $OUT/san/racecheck.$n.txt | tail -1)" | tee -a $OUT/san.txt
done
echo "sanitizers: $(( $(date +%s) - T0 )) s" | tee -a $OUT/san.txt
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
big="cross_entropy_backward:8192x8192 cross_entropy_ls_zloss:4096x128256 cross_entropy:4096x151936 dynamic_quant:16384x4096 fp8_quant:8192x8192 fused_add_layernorm:2048x16384 fused_add_rmsnorm:16384x4096 fused_linear_jsd:4096x50257 gated_rmsnorm:16384x4096 gelu_tanh_gated:8192x8192 grpo:8192x32000 jsd:2048x50257 kl_div:8192x32768 layer_norm_backward:8192x8192 layer_norm:2048x10240 long_sum:128x524288 rms_norm_backward:8192x8192 rms_norm:16384x1536 scaled_masked_softmax:131072x512 softmax:2048x40960 sum:4096x18432 welford:16384x7168 cross_entropy_backward:1024x262144 dynamic_quant:2048x201088 fp8_quant:16384x14336 fused_add_layernorm:1024x163840 fused_add_rmsnorm:37x4194304 gated_rmsnorm:1024x201088 gelu_tanh_gated:8192x24576 grpo:64x4194304 layer_norm:2048x152064 rms_norm_backward:4096x32768 rms_norm:2048x151936 scaled_masked_softmax:1024x163840 softmax:1024x262144 sum:64x4194304 welford:2048x163840"
for p in $big; do
  [ $(( $(date +%s) - T0 )) -gt 520 ] && echo "$p: not run (time)" >> $OUT/big.txt && continue
  k=${p%%:*}; s=${p#*:}
  for v in plain e0; do
    a=(--time); [ $v = e0 ] && a+=(--regions)
    timeout 40 $R run testdata/kernels/$k.rk --shape $s --dtype bf16 --copy-gbps 3027 "${a[@]}" > /tmp/rg-$k.$s.$v.txt 2>&1
    echo "$k $s $v: exit $? $(grep -o 'time [0-9.]* us' /tmp/rg-$k.$s.$v.txt | head -1)" >> $OUT/big.txt
  done
done
echo "total: $(( $(date +%s) - T0 )) s"
tar czf $OUT/logs.tgz -C / $(cd / && ls -d tmp/rg-*.txt) 2>/dev/null
cat $OUT/san.txt $OUT/overhead.txt
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
