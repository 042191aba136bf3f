#!/bin/bash
# call 1: A/B of the exp fold, bf16 unpack and select-arm fold; ncu of CE bwd old/new
set -u
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $OUT/gpu.txt
K=testdata/kernels/cross_entropy_backward.rk
P=.carry/ab/cross_entropy_backward-bf16-4096x151936
for w in old new; do
  if [ $w = old ]; then a="--ptx $P.old.ptx --manifest $P.old.json"; else a=""; fi
  timeout 120 ncu --clock-control none -k regex:cross_entropy_backward -c 1 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section InstructionStats --section Occupancy \
    .carry/rkc run $K --dtype bf16 --shape 4096x151936 --check $a > $OUT/ncu-$w.txt 2>&1
  echo "ncu $w: $?"
done
LIMIT=380 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts.txt > $OUT/ab-stdout.txt 2>&1
tail -n 40 $OUT/ab-stdout.txt
grep -E "Duration|Issue Slots Busy|Issued Ipc|SM Busy|DRAM Throughput|Memory Throughput|No Eligible|Executed Ipc A" $OUT/ncu-*.txt
