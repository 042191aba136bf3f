#!/bin/bash
# call 2 (H100), the build with the stamps' operands (the combine's results) and immediate
# offsets: bench/regions_overhead.sh over every suite shape moving 64-1500 MB (plain, stamped,
# plain), then at gated_rmsnorm's four shapes over 5% in call 1 the overhead with only the first
# and the last row block stamped (--regions-every 1048576) and with every block stamped. Run from
# the repository root.
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
T0=$(date +%s)
OUT=$OUT/ovh COPY=3027 LIMIT=430 bash bench/regions_overhead.sh $R > $OUT/ovh-stdout.txt 2>&1
echo "overhead: $(( $(date +%s) - T0 )) s" > $OUT/time.txt
g=(--shape 8192x2048 --shape 4096x5120 --shape 2048x12288 --shape 64x262144)
for round in 1 2; do
  for v in plain default last every1; do
    a=(); case $v in default) a=(--regions);; last) a=(--regions --regions-every 1048576);; every1) a=(--regions --regions-every 1);; esac
    timeout 120 $R run testdata/kernels/gated_rmsnorm.rk "${g[@]}" --dtype bf16 --time --copy-gbps 3027 "${a[@]}" 2>&1 | grep '^RESULT' | sed "s/^/$v /" >> $OUT/gated.txt
  done
done
echo "total: $(( $(date +%s) - T0 )) s" >> $OUT/time.txt
tar czf $OUT/ovh.tgz -C $OUT ovh && rm -rf $OUT/ovh
awk '{print $1, $4, $5, $8}' $OUT/gated.txt | sed 's/M=//;s/N=//;s/us=//'
tail -9 $OUT/ovh-stdout.txt; cat $OUT/time.txt
