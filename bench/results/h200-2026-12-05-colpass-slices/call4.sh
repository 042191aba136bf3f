#!/bin/bash
# call 4: the column pass's lanes, fewest turns first: the align build against the lanes build (same configs, or each build's pick)
set -u
xz -dc .carry/new.xz > /tmp/align && xz -dc .carry/lanes.xz > /tmp/lanes && chmod +x /tmp/align /tmp/lanes
OUT=$OUT/ab OLD_RKC=/tmp/align COPY=4274 LIMIT=480 bash bench/ab.sh /tmp/lanes .carry/points4.txt > $OUT/ab_table.txt 2>&1
tail -30 $OUT/ab_table.txt
S=$OUT/sanitize.txt
for p in "bench/heldout/rms_colsum.rk bf16 37x8192 grid=396,min_ctas=3" "bench/heldout/bias_grad.rk fp32 64x65536 grid=396,min_ctas=3" "tests/heuristics/kernels/bias_silu_back.rk bf16 37x20011 pick"; do
  set -- $p; c=""; [ "$4" != pick ] && c="--config $4"
  echo "### $p" >> $S
  timeout 100 compute-sanitizer --tool memcheck /tmp/lanes run $1 --dtype $2 --shape $3 $c --check >> $S 2>&1
  echo "$p: $(grep -c '^RESULT.*status=ok' $S | tail -1) $(grep 'ERROR SUMMARY' $S | tail -1)"
done
