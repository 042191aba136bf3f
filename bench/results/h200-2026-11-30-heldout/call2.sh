#!/bin/bash
# call 2: rkc tune at the held-out points furthest under torch.compile; ncu of dequant
mkdir -p $OUT
I="--inputs bench/heldout/inputs.json"
for p in "dequant 16384x1024" "dequant 1048576x32" "argmax 262144x64" "cosine 262144x64" "mse 262144x64" "colonly 1024x131072"; do
  set -- $p
  timeout 70 .carry/rkc tune bench/heldout/$1.rk --shape $2 --dtype bf16 --top 12 --no-check --copy-gbps 4274 > $OUT/tune_$1_$2.txt 2>&1
done
timeout 60 ncu --clock-control none --kernel-name dequant --launch-count 1 --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section SourceCounters .carry/rkc run bench/heldout/dequant.rk --shape 16384x1024 --dtype bf16 $I --check > $OUT/ncu_dequant.txt 2>&1
timeout 60 ncu --clock-control none --kernel-name l2norm --launch-count 1 --section SpeedOfLight --section WarpStateStats .carry/rkc run bench/heldout/l2norm.rk --shape 16384x1024 --dtype bf16 --check > $OUT/ncu_l2norm.txt 2>&1
for f in $OUT/tune_*; do echo "== $f"; sed -n 3,16p $f | cut -c1-110; tail -2 $f | head -1; done
grep -E "Duration|Memory Throughput|DRAM Throughput|Registers Per|Achieved Occupancy|Executed Ipc|Issue Slots|Stall|Warp Cycles Per Issued" $OUT/ncu_dequant.txt | head -30
grep -E "Duration|DRAM Throughput|Warp Cycles Per Issued" $OUT/ncu_l2norm.txt
