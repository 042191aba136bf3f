#!/bin/bash
# call 3: the eight round-6 held-out kernels at odd shapes in every dtype (robust_gpu, memcheck),
# then against torch.compile at their held-out shapes, bf16 and fp32
set -u
O=${OUT:-out}
gunzip -c .carry/rkc.gz > /tmp/rkc && chmod +x /tmp/rkc
K=fp8_softmax,i8_layernorm,dropout_softmax_bwd,outlier_clip,wb_grad,pow_norm,swiglu_fp8,logit_margin
H=$(echo $K | tr ',' '\n' | sed 's#^#bench/heldout/#; s#$#.rk#' | tr '\n' ' ')
mkdir -p /tmp/empty
OUT=$O KERNELS="$H" POLICIES=rkc PAD=16 JOBS=6 MEMCHECK=8 timeout 200 bash bench/robust_gpu.sh /tmp/rkc /tmp/empty > $O/robust-summary.txt 2>&1
gzip -9 $O/robust.log; rm -rf $O/robust
timeout 210 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels $K --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_bf16.csv > $O/tc_bf16.txt 2>&1
timeout 120 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels $K --dtype f32 --shapes-per-kernel 3 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_f32.csv > $O/tc_f32.txt 2>&1
rm -f $O/torch_compare.json
tail -12 $O/robust-summary.txt; tail -62 $O/tc_bf16.txt | cut -c1-120; tail -28 $O/tc_f32.txt | cut -c1-120
