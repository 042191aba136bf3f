#!/bin/bash
# call 3: column-pass slices on whole sectors: old build's pick vs new build's pick (same configs), checked; memcheck
set -u
xz -dc .carry/cur.xz > /tmp/old && xz -dc .carry/new.xz > /tmp/new && chmod +x /tmp/old /tmp/new
OUT=$OUT/ab OLD_RKC=/tmp/old COPY=4274 LIMIT=470 bash bench/ab.sh /tmp/new .carry/points3.txt > $OUT/ab_table.txt 2>&1
tail -60 $OUT/ab_table.txt
S=$OUT/sanitize.txt
for p in "bench/heldout/bias_grad.rk bf16 37x4099 grid=396,min_ctas=3" "bench/heldout/bias_grad.rk fp32 64x4096 grid=396,min_ctas=3" "tests/codegen/colpass_whole.rk bf16 64x50257 grid=396,min_ctas=3" "bench/heldout/rms_colsum.rk bf16 37x4096 grid=396,min_ctas=3" "bench/heldout/masked_pool.rk bf16 3x50257 pick" "testdata/kernels/layer_norm_backward.rk bf16 8x65536 pick"; do
  set -- $p; c=""; [ "$4" != pick ] && c="--config $4"
  echo "### $p" >> $S
  timeout 100 compute-sanitizer --tool memcheck /tmp/new run $1 --dtype $2 --shape $3 $c --check >> $S 2>&1
  echo "$p: $(grep -c '^RESULT.*status=ok' $S | tail -1) $(grep 'ERROR SUMMARY' $S | tail -1)"
done
