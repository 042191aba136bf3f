#!/bin/bash
# calls 3 and 4 (H100), the build of 6057840 (rkc run --time --regions keeps the cheaper of the
# two stampings): memcheck on a run that times both; then bench/regions_overhead.sh over every
# suite shape of 64-1500 MB, the kernels of $PART (a: cross_entropy to gated_rmsnorm, b: the
# rest). Run from the repository root: PART=a bash .../call3.sh
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
all=$(basename -s .rk testdata/kernels/*.rk)
if [ "$PART" = a ]; then
  timeout 200 compute-sanitizer --tool memcheck $R run testdata/kernels/rms_norm.rk --dtype bf16 --shape 4096x4096 --time --regions --check > $OUT/memcheck.txt 2>&1
  echo "memcheck both stampings: $(grep -c 'other_every' $OUT/memcheck.txt) $(grep 'ERROR SUMMARY' $OUT/memcheck.txt)"
  K=$(echo "$all" | sed -n '1,/gated_rmsnorm/p')
else
  K=$(echo "$all" | sed '1,/gated_rmsnorm/d')
fi
KERNELS="$(echo $K)" OUT=$OUT/ovh COPY=3027 LIMIT=480 bash bench/regions_overhead.sh $R > $OUT/ovh-stdout.txt 2>&1
tar czf $OUT/ovh.tgz -C $OUT ovh && rm -rf $OUT/ovh
tail -14 $OUT/ovh-stdout.txt
