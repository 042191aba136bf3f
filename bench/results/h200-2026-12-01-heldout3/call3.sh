#!/bin/bash
# A kernel that stores nothing but sums over rows: the old pick (forced) against the new one at
# 33 bias_grad points (bf16, fp32, fp16), then bias_grad against torch.compile again.
set -u
R=/tmp/rkc; gunzip -c .carry/rkc.gz > $R; chmod +x $R
LIMIT=420 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R bench/results/h200-2026-12-01-heldout3/call3-points.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
for d in bf16 f32; do
python3 bench/torch_compare.py --rkc $R --heldout bench/heldout --kernels bias_grad \
	--dtype $d --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $OUT/tc_$d.csv > $OUT/tc_$d.txt 2>&1
tail -10 $OUT/tc_$d.txt
done
cat $OUT/ab-table.txt
