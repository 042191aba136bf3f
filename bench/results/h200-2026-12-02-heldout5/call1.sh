#!/bin/bash
# call 1: the eight round-5 held-out kernels at odd shapes in every dtype (robust_gpu, memcheck),
# then against torch.compile at their held-out shapes, bf16 and fp32
set -u
O=${OUT:-out}
gunzip -c .carry/rkc.gz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/env.txt
H="bench/heldout/ln_of_rms.rk bench/heldout/logit_stats.rk bench/heldout/keep_mask.rk bench/heldout/e5m2_quant.rk bench/heldout/fp8_in_rms.rk bench/heldout/row_masked_ce.rk bench/heldout/moe_aux.rk bench/heldout/huber.rk"
K=ln_of_rms,logit_stats,keep_mask,e5m2_quant,fp8_in_rms,row_masked_ce,moe_aux,huber
mkdir -p /tmp/empty
OUT=$O KERNELS="$H" POLICIES=rkc PAD=16 JOBS=6 MEMCHECK=8 timeout 240 bash bench/robust_gpu.sh /tmp/rkc /tmp/empty > $O/robust-summary.txt 2>&1
timeout 200 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels $K --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_bf16.csv --json $O/tc_bf16.json > $O/tc_bf16.txt 2>&1
timeout 120 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels $K --dtype f32 --shapes-per-kernel 3 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_f32.csv --json $O/tc_f32.json > $O/tc_f32.txt 2>&1
tail -25 $O/robust-summary.txt; tail -70 $O/tc_bf16.txt; tail -30 $O/tc_f32.txt
