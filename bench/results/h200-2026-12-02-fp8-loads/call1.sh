#!/bin/bash
# call 1: fp8 inputs read by the hardware's pair conversion: GPU checks (robust_gpu, memcheck),
# old PTX against new, threads a row at the tiny rows, and fp8_in_rms against torch.compile
set -u
O=${OUT:-out}
gunzip -c .carry/rkc.gz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/env.txt
mkdir -p /tmp/empty
OUT=$O KERNELS="bench/heldout/fp8_in_rms.rk tests/codegen/training_ops.rk" POLICIES=rkc PAD=16 JOBS=6 MEMCHECK=2 timeout 150 bash bench/robust_gpu.sh /tmp/rkc /tmp/empty > $O/robust-summary.txt 2>&1
LIMIT=200 COPY=4274 OUT=$O timeout 230 bash bench/ab.sh /tmp/rkc bench/results/h200-2026-12-02-fp8-loads/call1-ab-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $O/ab.txt > $O/ab-table.txt 2>&1
timeout 150 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels fp8_in_rms --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_bf16.csv > $O/tc_bf16.txt 2>&1
timeout 60 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels fp8_in_rms --dtype f32 --shapes-per-kernel 3 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_f32.csv > $O/tc_f32.txt 2>&1
tail -8 $O/robust-summary.txt; cut -c1-90 $O/ab-table.txt; tail -12 $O/tc_bf16.txt; tail -6 $O/tc_f32.txt
