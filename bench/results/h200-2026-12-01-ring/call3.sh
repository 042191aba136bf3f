#!/bin/bash
# call 3, the final build: sanitizers on every ring line and the picks; the training suite at bf16
# and fp32 against torch.compile and Liger (issue 13 bar 2: dW/dB % of copy); ncu of
# layer_norm_backward bf16 8192x8192 under the ring
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv > $OUT/env.txt
OUT=$OUT/san timeout 200 bash bench/sanitize_new.sh $R "ahead=2|ahead=3|ahead=4|777x4000" > $OUT/sanitize.log 2>&1; echo "sanitize: $?"
for d in bf16 f32; do
timeout 200 python3 bench/torch_compare.py --rkc $R --suites training --dtype $d --liger .carry/liger/liger_kernel-0.8.5-py3-none-any.whl --copy-gbps 4274 --workdir /tmp/tcw --csv $OUT/tc_train_$d.csv > $OUT/tc_train_$d.txt 2>&1; echo "tc $d: $?"
done
timeout 100 ncu --set full --clock-control none -k regex:layer_norm_backward -c 1 $R run testdata/kernels/layer_norm_backward.rk --dtype bf16 --shape 8192x8192 > $OUT/ncu-lnb.txt 2>&1; echo "ncu: $?"
tail -3 $OUT/sanitize.log
for d in bf16 f32; do tail -22 $OUT/tc_train_$d.txt | cut -c1-170; done
grep -E "Duration|DRAM Throughput|Issued Warp|Registers Per|Achieved Occupancy" $OUT/ncu-lnb.txt
