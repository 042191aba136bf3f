#!/bin/bash
# call 1: the seven new held-out kernels checked at odd shapes (robust_gpu, memcheck), the
# masked-head test kernel at long rows, and the online max-sum change old PTX against new
set -u
O=${OUT:-out}
gunzip -c .carry/rkc.gz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/env.txt
H="bench/heldout/focal_ce.rk bench/heldout/varlen_softmax.rk bench/heldout/masked_bce.rk bench/heldout/gelu_layernorm.rk bench/heldout/linf_norm.rk bench/heldout/rms_colsum.rk bench/heldout/asym_quant.rk"
mkdir -p /tmp/empty
OUT=$O KERNELS="$H" POLICIES=rkc PAD=16 JOBS=6 MEMCHECK=7 timeout 240 bash bench/robust_gpu.sh /tmp/rkc /tmp/empty > $O/robust-summary.txt 2>&1
echo "== masked_head" > $O/masked_head.txt
for d in bf16 f16 f32; do timeout 60 /tmp/rkc run tests/codegen/masked_head.rk --shape 3x5000 --shape 4x151936 --shape 64x200000 --shape 1000x8192 --shape 7x1000003 --dtype $d --check >> $O/masked_head.txt 2>&1; done
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/rkc run tests/codegen/masked_head.rk --shape 4x151936 --shape 3x5000 --dtype bf16 --check >> $O/masked_head.txt 2>&1 || echo "EXIT $?" >> $O/masked_head.txt
OUT=$O/ab LIMIT=200 COPY=4274 bash bench/ab.sh /tmp/rkc .carry/s60/ab-pts.txt > $O/ab-run.txt 2>&1
python3 bench/ab_report.py $O/ab/ab.txt > $O/ab-table.txt 2>&1
cat $O/robust-summary.txt; grep -c "status=ok" $O/masked_head.txt; grep "FAIL\|ERROR\|EXIT\|ERROR SUMMARY" $O/masked_head.txt | head; cat $O/ab-table.txt
