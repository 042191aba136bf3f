#!/bin/bash
# call 1: the one-hot apply pass made twice (cd30c68): old PTX against new at 16
# cross_entropy_backward points; ncu of cross_entropy_backward and softmax bf16 4096x151936 (what
# bounds a kept row at 151936 columns); sanitizers on the one-hot runs; the training suite bf16
# against torch.compile and Liger
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv > $OUT/env.txt
for p in "bf16 4096x151936" "f32 2048x128256" "fp16 1000x65536" "bf16 777x100003"; do
  set -- $p; timeout 60 $R run testdata/kernels/cross_entropy_backward.rk --shape $2 --dtype $1 --check --copy-gbps 4274 2>&1 | tail -3 >> $OUT/checks.txt
done
LIMIT=200 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts1.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
K=testdata/kernels
for c in "cross_entropy_backward pick" "softmax pick" "cross_entropy_backward persistent=0,r_block=8192,m_block=1,num_warps=4,vec=8,split=1,cluster=8,smem=1,evict=1,min_ctas=5" "softmax persistent=0,r_block=4096,m_block=1,num_warps=8,vec=8,split=1,cluster=4,smem=2,evict=1,min_ctas=3"; do
  set -- $c; a=""; [ $2 != pick ] && a="--config $2"
  timeout 60 $R run $K/$1.rk --shape 4096x151936 --dtype bf16 --time --copy-gbps 4274 $a 2>&1 | grep -E "RESULT|median|copy" | head -3 | sed "s/^/$1 $2: /" >> $OUT/times.txt
done
for k in cross_entropy_backward softmax; do
  timeout 150 ncu --set full --clock-control none -k regex:$k -c 1 $R run $K/$k.rk --dtype bf16 --shape 4096x151936 > $OUT/ncu-$k.txt 2>&1
  echo "ncu $k: $?"
done
OUT=$OUT/san timeout 200 bash bench/sanitize_new.sh $R cross_entropy_backward > $OUT/sanitize.log 2>&1; echo "sanitize: $?"
timeout 200 python3 bench/torch_compare.py --rkc $R --suites training --dtype bf16 --liger .carry/liger/liger_kernel-0.8.5-py3-none-any.whl --copy-gbps 4274 --workdir /tmp/tcw --json $OUT/tc_train_bf16.json --csv $OUT/tc_train_bf16.csv > $OUT/tc_train_bf16.txt 2>&1; echo "tc: $?"
grep -E "RESULT|FAIL|error" $OUT/checks.txt | cut -c1-200
cut -c1-100 $OUT/ab-table.txt | tail -22
cat $OUT/times.txt | cut -c1-200
grep -E "Duration|Issue Slots Busy|DRAM Throughput|L2 Cache Throughput|Warp Cycles Per Issued|Achieved Occupancy|Registers Per" $OUT/ncu-*.txt
tail -5 $OUT/sanitize.log
tail -30 $OUT/tc_train_bf16.txt | cut -c1-160
