#!/bin/bash
# Round 3 of the held-out kernels: checks at odd shapes in three dtypes (dense and padded rows),
# memcheck, layer_norm_backward past 2^31 elements, then torch.compile at the seven held-out shapes.
set -u
R=/tmp/rkc; gunzip -c .carry/rkc.gz > $R; chmod +x $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt
K="bias_grad bias_gelu_back softcap_ce rms_fp8 minmax bce l1norm"
KF=$(for k in $K; do echo bench/heldout/$k.rk; done)
( timeout 420 $R run testdata/kernels/layer_norm_backward.rk --shape 1048576x2049 --dtype bf16 --check > $OUT/lnb-2e31.log 2>&1; echo "exit $?" >> $OUT/lnb-2e31.log ) &
SHAPES="1x1 3x7 5x257 37x64 2x50257 3x1000003 300x8192 65537x96 4x151936" KERNELS="$KF" \
	POLICIES=rkc PAD=16 JOBS=12 MEMCHECK=7 OUT=$OUT bash bench/robust_gpu.sh $R none > $OUT/robust-summary.txt 2>&1
wait
python3 bench/torch_compare.py --rkc $R --heldout bench/heldout --kernels $(echo $K | tr ' ' ,) \
	--dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $OUT/tc_bf16.csv > $OUT/tc_bf16.txt 2>&1
gzip -9 $OUT/robust.log $OUT/robust-memcheck.log
cat $OUT/robust-summary.txt; tail -3 $OUT/lnb-2e31.log
tail -60 $OUT/tc_bf16.txt
