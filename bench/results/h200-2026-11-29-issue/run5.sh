#!/bin/bash
# call 5: the chunk versions on the label's column (final build) against 2f82d0d; sanitizers; ncu; training table for cross_entropy_backward
set -u
K=testdata/kernels/cross_entropy_backward.rk
LIMIT=170 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts.txt > $OUT/ab-stdout.txt 2>&1
tail -n 14 $OUT/ab-stdout.txt
OUT=$OUT/san timeout 120 bash bench/sanitize_new.sh .carry/rkc cross_entropy_backward | tail -3
timeout 60 ncu --clock-control none -k regex:cross_entropy_backward -c 1 \
  --section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats \
  --metrics sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active \
  .carry/rkc run $K --dtype bf16 --shape 4096x151936 --check > $OUT/ncu-new.txt 2>&1
grep -E "Duration|Issue Slots Busy|DRAM Throughput|pipe_|^\s+Executed Instructions " $OUT/ncu-new.txt
for d in bf16 f32; do
  timeout 60 python3 bench/torch_compare.py --rkc .carry/rkc --suites training --kernels cross_entropy_backward --shapes-per-kernel 4 --dtype $d --copy-gbps 4274 --csv $OUT/tc-$d.csv --workdir $OUT/tcw-$d > $OUT/tc-$d.txt 2>&1
  echo "tc $d: $?"; tail -n 7 $OUT/tc-$d.txt
done
rm -rf $OUT/tcw-*
