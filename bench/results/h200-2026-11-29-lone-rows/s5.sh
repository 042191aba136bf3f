#!/bin/bash
# Session 29, call 5: the training suite against torch.compile at fp32.
set -u
O=$OUT/s5
mkdir -p $O
timeout 500 python3 bench/torch_compare.py --rkc .carry/rkc --suites training --dtype f32 --copy-gbps 4274 \
	--csv $O/tc_training_f32.csv --workdir "$OUT/tcw" >$O/tc_training_f32.txt 2>&1
echo "rc=$?"
tail -20 $O/tc_training_f32.txt
cd $OUT && tar czf s5.tgz s5 && rm -rf s5
