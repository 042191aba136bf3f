#!/bin/bash
# call 2: the old PTX of the masked-head kernel checked (the NaN the change removes), then the
# seven new held-out kernels against torch.compile at bf16 (7 shapes) and fp32 (3)
set -u
O=${OUT:-out}
R=/tmp/rkc; gunzip -c .carry/rkc.gz > $R; chmod +x $R
P=.carry/s60/ab/masked_head-bf16-64x200000.old
$R run tests/codegen/masked_head.rk --dtype bf16 --shape 64x200000 --ptx $P.ptx --manifest $P.json --check > $O/masked_head_old.txt 2>&1
K=focal_ce,varlen_softmax,masked_bce,gelu_layernorm,linf_norm,rms_colsum,asym_quant
timeout 330 python3 bench/torch_compare.py --rkc $R --heldout bench/heldout --kernels $K \
	--dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_bf16.csv > $O/tc_bf16.txt 2>&1
timeout 200 python3 bench/torch_compare.py --rkc $R --heldout bench/heldout --kernels $K \
	--dtype f32 --shapes-per-kernel 3 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_f32.csv > $O/tc_f32.txt 2>&1
grep RESULT $O/masked_head_old.txt | cut -c1-300
tail -52 $O/tc_bf16.txt; tail -25 $O/tc_f32.txt
