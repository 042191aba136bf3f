#!/bin/bash
# call 3: few_rows against torch.compile with the read-back (bf16, every shape); the fused_add
# kernels at fp32 on few_rows and long_rows and at bf16 on long_rows; rkc tune at sum 37x262144
mkdir -p $OUT
timeout 250 python3 bench/torch_compare.py --rkc .carry/rkc --suites few_rows --dtype bf16 --shapes-per-kernel 5 --copy-gbps 4274 --csv $OUT/tc_few_rows.csv > $OUT/tc_few_rows.txt 2>&1
timeout 150 python3 bench/torch_compare.py --rkc .carry/rkc --suites few_rows,long_rows --kernels fused_add_rmsnorm,fused_add_layernorm --dtype f32 --shapes-per-kernel 5 --copy-gbps 4274 --csv $OUT/tc_fused_add_f32.csv > $OUT/tc_fused_add_f32.txt 2>&1
timeout 100 python3 bench/torch_compare.py --rkc .carry/rkc --suites long_rows --kernels fused_add_rmsnorm,fused_add_layernorm --dtype bf16 --shapes-per-kernel 5 --copy-gbps 4274 --csv $OUT/tc_fused_add_long_bf16.csv > $OUT/tc_fused_add_long_bf16.txt 2>&1
timeout 90 .carry/rkc tune testdata/kernels/sum.rk --shape 37x262144 --dtype bf16 --top 24 --copy-gbps 4274 > $OUT/tune_sum.txt 2>&1
for f in tc_few_rows tc_fused_add_f32 tc_fused_add_long_bf16; do echo "== $f"; tail -25 $OUT/$f.txt; done
echo "== tune"; head -12 $OUT/tune_sum.txt; tail -3 $OUT/tune_sum.txt
