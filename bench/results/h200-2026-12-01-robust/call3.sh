#!/bin/bash
# call 3: shapes past 2^31 elements (and 2^32 bytes an array), one per mode, checked against
# float64 (256 sampled rows, every output element scanned for writes); then rms_norm at
# 67108864 rows. Run from the repository root, the static rkc at .carry/rkc.
set -u
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc
free -g | head -2 > $OUT/env.txt; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >> $OUT/env.txt
while read -r k d s; do
	case "$k" in '' | '#'*) continue ;; esac
	t0=$(date +%s)
	timeout 80 .carry/rkc run testdata/kernels/$k.rk --shape $s --dtype $d --check > $OUT/big-$k-$s.txt 2>&1
	rc=$?
	echo "$k $d $s rc=$rc $(( $(date +%s) - t0 ))s $(grep -o 'status=[A-Z]*' $OUT/big-$k-$s.txt | head -1)" | tee -a $OUT/big-summary.txt
done <<'PTS'
welford fp32 2x1100000000
sum bf16 32768x65600
softmax bf16 16400x131072
cross_entropy_backward bf16 16384x131073
layer_norm_backward bf16 40000x65536
rms_norm_backward bf16 1048576x2049
rms_norm bf16 67108864x33
PTS
cat $OUT/big-*.txt | grep -v "^  .*ok$" | head -60
