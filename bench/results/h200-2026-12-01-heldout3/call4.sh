#!/bin/bash
# The final rule (column-pass sectors in the model): the old pick (forced) against the new one at
# 53 points of bias_grad, bias_gelu_back and colonly, then the three against torch.compile.
set -u
R=/tmp/rkc; gunzip -c .carry/rkc.gz > $R; chmod +x $R
LIMIT=400 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R bench/results/h200-2026-12-01-heldout3/call4-points.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
for d in bf16; do
python3 bench/torch_compare.py --rkc $R --heldout bench/heldout --kernels bias_grad,bias_gelu_back,colonly \
	--dtype $d --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $OUT/tc_$d.csv > $OUT/tc_$d.txt 2>&1
tail -24 $OUT/tc_$d.txt
done
cat $OUT/ab-table.txt
