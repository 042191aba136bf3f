#!/bin/bash
# Issue 12 bar 2 at long launches: bench/regions.sh over every suite's largest shape (up to 1500
# MB) of each kernel; then, as time allows, the training suite at fp32 against torch.compile.
set -u
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader; } > $OUT/env.txt
SUITES="core transfer long_rows few_rows training wide_bwd" OUT=$OUT/regions LIMIT=60 bench/regions.sh .carry/rkc > $OUT/regions_stdout.txt 2>&1
tail -45 $OUT/regions_stdout.txt
el=$SECONDS
echo "regions took $el s"
if [ $el -lt 380 ]; then
	timeout $((560 - el)) python3 bench/torch_compare.py --rkc .carry/rkc --suites training --dtype f32 --copy-gbps 4274 \
		--csv $OUT/tc_training_f32.csv --workdir tcw > $OUT/tc_training_f32.txt 2>&1
	tail -12 $OUT/tc_training_f32.txt
fi
cd $OUT && tar czf all.tgz $(find . -type f ! -name all.tgz)
