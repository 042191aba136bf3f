#!/bin/bash
# call 4: the policy with take_colpass_rows: the three held-out kernels a colsum of which needs a
# row reduction at odd shapes in every dtype (robust_gpu, memcheck), then against torch.compile at
# their held-out shapes (bf16, fp32); then f16 against torch.compile over the held-out kernels
set -u
O=${OUT:-out}
gunzip -c .carry/rkc.gz > /tmp/rkc && chmod +x /tmp/rkc
mkdir -p /tmp/empty
OUT=$O KERNELS="bench/heldout/rms_colsum.rk bench/heldout/ln_bwd_recompute.rk bench/heldout/moe_aux.rk tests/codegen/colpass_rows.rk" POLICIES=rkc PAD=16 JOBS=6 MEMCHECK=4 timeout 150 bash bench/robust_gpu.sh /tmp/rkc /tmp/empty > $O/robust-summary.txt 2>&1
for d in bf16 f32; do
timeout 100 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels rms_colsum,ln_bwd_recompute,moe_aux --dtype $d --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_$d.csv --json $O/tc_$d.json > $O/tc_$d.txt 2>&1
done
timeout 200 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --dtype f16 --shapes-per-kernel 2 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_f16.csv --json $O/tc_f16.json > $O/tc_f16.txt 2>&1
tail -4 $O/robust-summary.txt; for d in bf16 f32; do grep -E "rms_colsum|ln_bwd|moe_aux|geomean" $O/tc_$d.txt | grep -v "^heldout,"; done; grep -E "geomean|FAIL|NOCOMPILE|ERR" $O/tc_f16.txt | head; tail -3 $O/tc_f16.txt
