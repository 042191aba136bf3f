#!/bin/bash
# call 2: few_rows against torch.compile, bf16 and fp32, with the lone-CTA rule; rkc tune at welford fp32 64x1000003
for d in bf16 f32; do
  python3 bench/torch_compare.py --rkc .carry/rkc --suites few_rows --dtype $d --shapes-per-kernel 100 --copy-gbps 4274 --csv $OUT/tc_few_rows_$d.csv --workdir /tmp/tcw > $OUT/tc_few_rows_$d.txt 2>&1
  tail -4 $OUT/tc_few_rows_$d.txt
done
timeout 120 .carry/rkc tune testdata/kernels/welford.rk --shape 64x1000003 --dtype f32 --top 24 --copy-gbps 4274 > $OUT/tune-welford-64x1000003.log 2>&1
grep -E '^TUNE|seed' $OUT/tune-welford-64x1000003.log | head -5
