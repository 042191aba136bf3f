#!/bin/bash
# call 1: fused_linear_jsd, the kernel furthest from copy: tune at bf16 4096x50257 and fp32 2048x256000, ncu of both picks
gunzip -c .carry/rkc.gz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
K=testdata/kernels/fused_linear_jsd.rk
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv > $OUT/env.txt
timeout 170 $R tune $K --shape 2048x256000 --dtype f32 --top 20 --no-check --copy-gbps 4274 > $OUT/tune-jsd-f32.txt 2>&1
timeout 120 $R tune $K --shape 4096x50257 --dtype bf16 --top 20 --no-check --copy-gbps 4274 > $OUT/tune-jsd-bf16.txt 2>&1
S="--section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis"
timeout 100 ncu $S -k regex:fused_linear_jsd --launch-skip 2 --launch-count 1 $R run $K --shape 4096x50257 --dtype bf16 --time > $OUT/ncu-jsd-bf16.txt 2>&1
timeout 100 ncu $S -k regex:fused_linear_jsd --launch-skip 2 --launch-count 1 $R run $K --shape 2048x256000 --dtype f32 --time > $OUT/ncu-jsd-f32.txt 2>&1
for f in $OUT/tune-*.txt; do echo "== $f"; head -30 $f | cut -c1-150; done
for f in $OUT/ncu-*.txt; do echo "== $f"; grep -E "Duration|DRAM Throughput|Issue Slots Busy|Executed Ipc A|Achieved Occupancy|No Eligible|Warp Cycles Per Issued|Theoretical Occ" $f; done
