#!/bin/bash
# call 1 (H100): the next block's loads pinned at the top of a grid's block (the branch
# pin-next-loads) against main (f24eced) at the 50 sm_90 golden grid points whose PTX it changes
# (bench/ab_ptx.sh -carry-new on the build machine: old = main's PTX, new = the branch's), each
# point old, new, new, old, checked against float64; then bench/regions_overhead.sh with main's
# build for what time is left. Run from the repository root.
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt
OUT=$OUT/ab COPY=3027 LIMIT=260 bash bench/ab.sh /tmp/rkc .carry/pin-pts.txt > $OUT/ab-stdout.txt 2>&1
echo "ab: $(( $(date +%s) - T0 )) s" >> $OUT/env.txt
OUT=$OUT/ovh COPY=3027 LIMIT=$(( 520 - ($(date +%s) - T0) )) bash bench/regions_overhead.sh /tmp/rkc > $OUT/ovh-stdout.txt 2>&1
echo "total: $(( $(date +%s) - T0 )) s" >> $OUT/env.txt
tar czf $OUT/ovh.tgz -C $OUT ovh && rm -rf $OUT/ovh
tail -8 $OUT/ab-stdout.txt; tail -12 $OUT/ovh-stdout.txt; cat $OUT/env.txt
