#!/bin/bash
# call 2 (H100): the three shapes over 5% in call 1, stamped at the default sampling, every block
# (one copy of the row code) and two blocks (the first and the last: the second copy's cost
# alone), each against the plain kernel timed in the same process. Run from the repository root.
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
for p in "welford 8192x14336" "dynamic_quant 512x262144" "dynamic_quant 64x4194304" "dynamic_quant 16x524288"; do
  set -- $p
  for e in default 1 1048576; do
    ev=(); [ $e != default ] && ev=(--regions-every $e)
    $R run testdata/kernels/$1.rk --shape $2 --dtype bf16 --time --copy-gbps 3027 --regions --check "${ev[@]}" > $OUT/$1-$2-$e.log 2>&1
    echo "$1 $2 every=$e: $(grep '^REGIONS' $OUT/$1-$2-$e.log | grep -o 'plain_us=[^ ]*\|plain_after_us=[^ ]*' | tr '\n' ' ') $(grep '^RESULT' $OUT/$1-$2-$e.log | grep -o ' us=[^ ]*\|status=[^ ]*' | tr '\n' ' ')"
  done
done
tar czf $OUT/logs.tgz -C $OUT $(cd $OUT && ls *.log) && rm -f $OUT/*.log
