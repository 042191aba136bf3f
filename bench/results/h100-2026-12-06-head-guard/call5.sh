#!/bin/bash
# call 5 (H100): why every block stamped runs slower with the timer read into a zeroed register
# (E, 7f0b0e5) than with the predicated read into an unset one (old, efc5a22): ncu's warp states
# and per-instruction stall samples of cross_entropy_backward and layer_norm_backward bf16
# 8192x8192 under --regions-every 1, each build's PTX (.carry/v, compiled here). Run from the
# repository root.
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt
for k in cross_entropy_backward layer_norm_backward; do
  for v in old E; do
    f=.carry/v/$k.$v
    timeout 60 $R run testdata/kernels/$k.rk --shape 8192x8192 --dtype bf16 --ptx $f.ptx --manifest $f.json --time > $OUT/time.$k.$v.txt 2>&1
    echo "$k $v: $(grep -o 'time [0-9.]* us' $OUT/time.$k.$v.txt | head -1)"
    timeout 150 ncu --kernel-name $k --launch-count 1 --section WarpStateStats --section SourceCounters --section SchedulerStats --section LaunchStats \
      --export $OUT/$k.$v --force-overwrite $R run testdata/kernels/$k.rk --shape 8192x8192 --dtype bf16 --ptx $f.ptx --manifest $f.json --check > $OUT/ncu.$k.$v.log 2>&1
    echo "ncu $k $v: exit $?"
    ncu --import $OUT/$k.$v.ncu-rep --page details --csv > $OUT/details.$k.$v.csv 2>&1
    ncu --import $OUT/$k.$v.ncu-rep --page source --csv --print-source sass > $OUT/source.$k.$v.csv 2>&1
    echo "source rows: $(wc -l < $OUT/source.$k.$v.csv)"
  done
done
for f in $OUT/details.*.csv; do echo "== $f"; grep -E "Duration|Stall|Warp Cycles Per|Issued Warp|No Eligible|Active Warps" $f | cut -c1-200 | head -14; done
gzip $OUT/source.*.csv
