#!/bin/bash
# call 2: settle_lone_warps at 40 points of shapes not in call 1: the old pick forced (--config)
# against the new pick, one build; memcheck at three odd shapes the rule's class reaches; and
# at 11 few-row points (1-250 rows, which the rule leaves alone) the pick against 16 warps forced
set -u
xz -dc .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
S=$OUT/memcheck.txt
for p in "tests/heuristics/kernels/masked_pool.rk bf16 300x20011" "testdata/kernels/gelu_tanh_gated.rk bf16 301x32767" "testdata/kernels/fused_linear_jsd.rk bf16 277x14336"; do
  set -- $p
  echo "### $p" >> $S
  timeout 60 compute-sanitizer --tool memcheck /tmp/rkc run $1 --dtype $2 --shape $3 --check >> $S 2>&1
  echo "$p: $(grep '^RESULT' $S | tail -1 | grep -o 'status=[a-zA-Z]*') $(grep 'ERROR SUMMARY' $S | tail -1)"
done
while read -r k d s; do
  for c in pick num_warps=16; do
    a=""; [ $c != pick ] && a="--config $c"
    r=$(timeout 60 /tmp/rkc run $k --dtype $d --shape $s $a --time --check --copy-gbps 4274 2>&1 | grep '^RESULT' | tail -1)
    echo "$k $d $s $c :: ${r:-NONE}"
  done
done < bench/results/h100-2026-12-05-lone-warps-ab/few-points.txt > $OUT/few.txt 2>&1
OUT=$OUT/ab COPY=4274 LIMIT=200 bash bench/ab.sh /tmp/rkc bench/results/h100-2026-12-05-lone-warps-ab/points.txt > $OUT/ab_table.txt 2>&1
tail -46 $OUT/ab_table.txt
