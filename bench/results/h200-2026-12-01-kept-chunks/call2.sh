#!/bin/bash
# call 2: cross_entropy_backward with ignored rows (5% and row 1, e22aba0) checked against
# float64 at six shapes and under the sanitizers; 27 kept-row picks over clusters (register fill)
# against one config family (r_block 4096, 8 warps, cp.async fill, the cluster that leaves
# 76 KB a CTA); cross_entropy_backward against torch.compile and Liger at bf16 and fp32
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
for p in "bf16 4096x151936" "bf16 4096x16384" "bf16 3x151936" "f32 2048x128256" "fp16 1000x65536" "bf16 777x100003"; do
  set -- $p; timeout 60 $R run testdata/kernels/cross_entropy_backward.rk --shape $2 --dtype $1 --check 2>&1 | tail -2 >> $OUT/checks.txt
done
OUT=$OUT/san timeout 150 bash bench/sanitize_new.sh $R cross_entropy_backward > $OUT/sanitize.log 2>&1; echo "sanitize: $?"
LIMIT=260 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts2.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
for d in bf16 f32; do
timeout 100 python3 bench/torch_compare.py --rkc $R --suites training --kernels cross_entropy_backward --dtype $d --liger .carry/liger/liger_kernel-0.8.5-py3-none-any.whl --copy-gbps 4274 --workdir /tmp/tcw --csv $OUT/tc_ce_$d.csv > $OUT/tc_ce_$d.txt 2>&1; echo "tc $d: $?"
done
grep -E "RESULT" $OUT/checks.txt | cut -c1-150
tail -3 $OUT/sanitize.log
cut -c1-100 $OUT/ab-table.txt | tail -32
tail -9 $OUT/tc_ce_bf16.txt | cut -c1-160; tail -9 $OUT/tc_ce_f32.txt | cut -c1-160
