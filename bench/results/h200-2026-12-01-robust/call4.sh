#!/bin/bash
# call 4: call 3's sums over rows and Welford past 2^31 elements again, with longer limits (the
# float64 reference of a colsum takes every row) and line-buffered logs.
set -u
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc
while read -r k d s lim; do
	t0=$(date +%s)
	timeout $lim stdbuf -oL -eL .carry/rkc run testdata/kernels/$k.rk --shape $s --dtype $d --check > $OUT/big-$k-$s.txt 2>&1
	rc=$?
	echo "$k $d $s rc=$rc $(( $(date +%s) - t0 ))s $(grep -o 'status=[A-Za-z]*' $OUT/big-$k-$s.txt | head -1)" | tee -a $OUT/big-summary.txt
done <<'PTS'
welford fp32 16x134217729 150
rms_norm_backward bf16 1048576x2049 330
PTS
cat $OUT/big-*.txt | grep -v "^  .*ok$" | cut -c1-400 | head -40
