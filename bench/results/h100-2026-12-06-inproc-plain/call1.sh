#!/bin/bash
# call 1 (H100), the build of branch inproc-plain (`rkc run --time --regions` times the plain
# kernel on the stamped run's buffers): compute-sanitizer memcheck on stamped runs of every
# execution mode (looped rows at 1024 threads, smem rows, DSMEM clusters, cooperative grids) and on
# one --time --regions run; then bench/regions_overhead.sh (one process a kernel) at the kernels
# over 5% or nearest it before. Run from the repository root.
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
T0=$(date +%s)
S=$OUT/memcheck.txt; : > $S
while read -r k s; do
  echo "### $k $s" >> $S
  timeout 120 compute-sanitizer --tool memcheck $R run testdata/kernels/$k.rk --dtype bf16 --shape $s --regions --check >> $S 2>&1
  echo "memcheck $k $s: ok=$(grep -c '^RESULT.*status=ok' $S) $(grep 'ERROR SUMMARY' $S | tail -1)"
done <<'PTS'
layer_norm_backward 1024x16384
layer_norm_backward 512x16384
dynamic_quant 16x524288
welford 8x1048576
layer_norm_backward 16x524288
gated_rmsnorm 8192x2048
PTS
echo "### time+regions" >> $S
timeout 150 compute-sanitizer --tool memcheck $R run testdata/kernels/rms_norm.rk --dtype bf16 --shape 256x4096 --time --regions >> $S 2>&1
echo "memcheck --time --regions rms_norm 256x4096: $(grep -c '^REGIONS.*plain_us' $S) $(grep 'ERROR SUMMARY' $S | tail -1)"
echo "memcheck: $(( $(date +%s) - T0 )) s"
$R run testdata/kernels/gated_rmsnorm.rk --shape 8192x2048 --dtype bf16 --time --regions --json > $OUT/json.txt 2>&1
python3 -c "import json,sys; j=json.loads(open(sys.argv[1]).read().splitlines()[-1]); print('json plain_us', j.get('plain_us'), 'us', j['us'])" $OUT/json.txt
KERNELS="gated_rmsnorm dynamic_quant welford softmax" OUT=$OUT/ovh COPY=3027 LIMIT=200 bash bench/regions_overhead.sh $R > $OUT/ovh-stdout.txt 2>&1
echo "total: $(( $(date +%s) - T0 )) s"
tar czf $OUT/ovh.tgz -C $OUT ovh && rm -rf $OUT/ovh
tail -60 $OUT/ovh-stdout.txt
