#!/bin/bash
# call 4 (H100), the build with `rkc run --time --regions` timing the plain kernel on the stamped
# run's buffers: bench/regions_overhead.sh (one process a kernel) at the kernels over 5% in calls
# 2 and 3, and one --json run. Run from the repository root.
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
T0=$(date +%s)
$R run testdata/kernels/gated_rmsnorm.rk --shape 8192x2048 --dtype bf16 --time --regions --json > $OUT/json.txt 2>&1
KERNELS="gated_rmsnorm dynamic_quant welford softmax" OUT=$OUT/ovh COPY=3027 LIMIT=170 bash bench/regions_overhead.sh $R > $OUT/ovh-stdout.txt 2>&1
echo "total: $(( $(date +%s) - T0 )) s" > $OUT/time.txt
tar czf $OUT/ovh.tgz -C $OUT ovh && rm -rf $OUT/ovh
python3 -c "import json,sys; j=json.loads(open(sys.argv[1]).read().splitlines()[-1]); print('json plain_us', j.get('plain_us'), 'us', j['us'])" $OUT/json.txt
cat $OUT/ovh-stdout.txt | tail -60; cat $OUT/time.txt
