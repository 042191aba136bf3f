#!/bin/bash
# call 1 (first build: the combine's trip sized to the CTA, before kept_full's waves condition):
# old pick (the old build's PTX, bench/ab_ptx.sh -any-config) against the new build's pick;
# memcheck at three points. call2.sh is the same at call2-points-list.txt with racecheck too.
mkdir -p $OUT/ab; tar xzf .carry/ab.tgz -C .carry; gunzip -k -f .carry/rkc.gz
LIMIT=440 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab/table.txt 2>&1
for a in "testdata/kernels/rms_norm_backward.rk --shape 777x65536 --dtype bf16" \
         "testdata/kernels/layer_norm_backward.rk --shape 301x30011 --dtype fp32 --config num_warps=32,grid=132" \
         "bench/heldout/colonly.rk --shape 1000x131075 --dtype bf16"; do
  echo "== $a"
  timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 .carry/rkc run $a --check 2>&1 | tail -4
  echo "rc=$?"
done > $OUT/sanitize.txt 2>&1
