#!/bin/bash
# call 6 (H100): the carried loads waited for before a grid's loop (settle_carried,
# codegen/lower_sched.c), the build of cacf55c with the rule at 2 blocks a band (cacf55c: 3).
# memcheck at three grid points with loads carried (ahead=1 with a row past M, the ring, held [N] vectors); the stamps'
# overhead at the seven points (plain twice, the default sampling, every block); then the plain
# kernels old (7f0b0e5) against new at the grid points whose PTX changed (bench/ab.sh, PTX
# compiled here, every run checked against float64). Run from the repository root.
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt
T0=$(date +%s)
for p in "rms_norm_backward bf16 1000x4096" "layer_norm_backward bf16 1000x4096" "cross_entropy_backward bf16 1001x8192"; do
  set -- $p
  timeout 60 compute-sanitizer --tool memcheck $R run testdata/kernels/$1.rk --dtype $2 --shape $3 --check > $OUT/memcheck.$1.$3.txt 2>&1
  echo "memcheck $p: $(grep -o 'status=[a-z]*' $OUT/memcheck.$1.$3.txt | head -1) $(grep 'ERROR SUMMARY' $OUT/memcheck.$1.$3.txt | tail -1) $(grep -o 'grid=[0-9]*\|ahead=[0-9]' $OUT/memcheck.$1.$3.txt | head -2 | tr '\n' ' ')" | tee -a $OUT/san.txt
done
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
OUT=$OUT/ab COPY=3027 LIMIT=$(( 560 - ($(date +%s) - T0) )) bash bench/ab.sh $R bench/results/h100-2026-12-06-head-guard/settle-ab-points.txt > $OUT/ab_table.txt 2>&1
gzip $OUT/ab/ab.txt
echo "total: $(( $(date +%s) - T0 )) s"
cat $OUT/san.txt $OUT/overhead.txt
cut -c1-150 $OUT/ab_table.txt | tail -45
