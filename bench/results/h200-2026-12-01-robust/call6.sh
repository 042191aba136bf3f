#!/bin/bash
# call 6: the final build. Welford over equal elements under compute-sanitizer (memcheck,
# racecheck, synccheck: bench/sanitize_new.sh's welford lines), and rms_norm_backward past 2^31
# elements again, its reference now summed in row groups at once.
set -u
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc
OUT=$OUT timeout 150 bash bench/sanitize_new.sh .carry/rkc "welford" > $OUT/sanitize-summary.txt 2>&1
tail -3 $OUT/sanitize-summary.txt
t0=$(date +%s)
timeout 90 stdbuf -oL .carry/rkc run testdata/kernels/rms_norm_backward.rk --shape 1048576x2049 --dtype bf16 --check > $OUT/big-rms_norm_backward.txt 2>&1
echo "rms_norm_backward bf16 1048576x2049 rc=$? $(( $(date +%s) - t0 ))s $(grep -o 'status=[a-zA-Z]*' $OUT/big-rms_norm_backward.txt)" | tee -a $OUT/sanitize-summary.txt
