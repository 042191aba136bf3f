#!/bin/bash
# call 4: i8 inputs cast to f32 with no conversion instruction: old PTX against new, GPU checks
# (robust_gpu, memcheck) and against torch.compile for the two held-out kernels with i8 inputs
set -u
O=${OUT:-out}
gunzip -c .carry/rkc.gz > /tmp/rkc && chmod +x /tmp/rkc
LIMIT=170 COPY=4274 OUT=$O timeout 200 bash bench/ab.sh /tmp/rkc bench/results/h200-2026-12-02-heldout6/call4-ab-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $O/ab.txt > $O/ab-table.txt 2>&1
gzip -9 $O/ab.txt
mkdir -p /tmp/empty
OUT=$O KERNELS="bench/heldout/i8_layernorm.rk bench/heldout/dequant.rk" POLICIES=rkc PAD=16 JOBS=6 MEMCHECK=2 timeout 120 bash bench/robust_gpu.sh /tmp/rkc /tmp/empty > $O/robust-summary.txt 2>&1
gzip -9 $O/robust.log; rm -rf $O/robust
timeout 150 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels i8_layernorm,dequant --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_bf16.csv > $O/tc_bf16.txt 2>&1
rm -f $O/torch_compare.json
cut -c1-90 $O/ab-table.txt; tail -4 $O/robust-summary.txt; tail -17 $O/tc_bf16.txt | cut -c1-120
