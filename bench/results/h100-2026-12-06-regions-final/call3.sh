#!/bin/bash
# call 3 (H100), the build of call 2: bench/regions.sh at the core and transfer suites' shapes
# (per-region tables of every kernel, the one-wave medians, the verdicts), the overhead at the four
# kernels call 2 did not reach, and gated_rmsnorm's plain kernel in two processes whose shapes come
# in other orders (how far a plain time moves between processes). Run from the repository root.
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
T0=$(date +%s)
for order in "8192x2048 4096x5120 2048x12288 64x262144" "64x262144 2048x12288 4096x5120 8192x2048" "8192x2048 4096x5120 2048x12288 64x262144"; do
  a=(); for s in $order; do a+=(--shape $s); done
  timeout 60 $R run testdata/kernels/gated_rmsnorm.rk "${a[@]}" --dtype bf16 --time --copy-gbps 3027 2>&1 | grep '^RESULT' | sed "s/^/[$order] /" >> $OUT/gated-order.txt
done
LIMIT=60 COPY=3027 OUT=$OUT/regions bash bench/regions.sh $R > $OUT/regions-stdout.txt 2>&1
echo "regions: $(( $(date +%s) - T0 )) s" > $OUT/time.txt
KERNELS="scaled_masked_softmax softmax sum welford" OUT=$OUT/ovh COPY=3027 LIMIT=$(( 540 - ($(date +%s) - T0) )) bash bench/regions_overhead.sh $R > $OUT/ovh-stdout.txt 2>&1
echo "total: $(( $(date +%s) - T0 )) s" >> $OUT/time.txt
tar czf $OUT/regions.tgz -C $OUT regions ovh && rm -rf $OUT/regions $OUT/ovh
sed 's/ worst_rel.*us=/ us=/; s/ gbps.*//' $OUT/gated-order.txt | cut -c1-150
tail -30 $OUT/regions-stdout.txt; tail -8 $OUT/ovh-stdout.txt; cat $OUT/time.txt
