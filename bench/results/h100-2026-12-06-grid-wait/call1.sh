#!/bin/bash
# call 1 (H100): the colsum combine's new regions (colsum, colsum.wait over the grid,
# colsum.slice) on the norm backward kernels, every block stamped and sampled; then the training
# suite against torch.compile and Liger at bf16 and fp32 (issue 13 bars 2 and 3 on the H100).
# Run from the repository root; $OUT gets the logs, a short table last.
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader > $OUT/env.txt
$R --version >> $OUT/env.txt 2>&1
mkdir -p $OUT/regions
for k in rms_norm_backward layer_norm_backward; do
  for s in 4096x4096 16384x4096 8192x8192 4096x32768; do
    for e in 1 0; do
      ev=(); [ $e = 1 ] && ev=(--regions-every 1)
      timeout 60 $R run testdata/kernels/$k.rk --shape $s --dtype bf16 --check --time --regions "${ev[@]}" \
        --copy-gbps 3027 > $OUT/regions/$k.$s.e$e.txt 2>&1
      echo "regions $k $s every=$e: exit $?"
    done
  done
done
for d in bf16 f32; do
  timeout 170 python3 bench/torch_compare.py --rkc $R --suites training --dtype $d \
    --liger .carry/liger/liger_kernel-0.8.5-py3-none-any.whl --copy-gbps 3027 --workdir /tmp/tcw \
    --csv $OUT/tc_train_$d.csv > $OUT/tc_train_$d.txt 2>&1
  echo "tc $d: $?"
done
cat $OUT/env.txt
for f in $OUT/regions/*.e1.txt; do
  echo "== $f"; grep -E "^  (colsum|rows|between|load|combine|pass|apply|fill)|kernel [0-9.]+ us|status=" $f | cut -c1-150 | grep -v "^RESULT" | head -14
  grep -o "status=[a-z]*.*us=[0-9.]*" $f | head -1
done
for d in bf16 f32; do tail -32 $OUT/tc_train_$d.txt | cut -c1-150; done
