#!/bin/bash
# The final build: sanitizers on the colsum-only lines, the seven new kernels checked again at
# odd shapes (bf16, f16), and bias_grad at fp32 against torch.compile.
set -u
R=/tmp/rkc; gunzip -c .carry/rkc.gz > $R; chmod +x $R
OUT=$OUT bash bench/sanitize_new.sh $R "colsum_only" > $OUT/sanitize.txt 2>&1
K="bias_grad bias_gelu_back softcap_ce rms_fp8 minmax bce l1norm"
KF=$(for k in $K; do echo bench/heldout/$k.rk; done)
SHAPES="1x1 3x7 5x256 37x64 2x50256 300x8192 65537x96 4x151936" KERNELS="$KF" DTYPES="bf16 f16" \
	POLICIES=rkc PAD=16 JOBS=12 MEMCHECK=0 OUT=$OUT bash bench/robust_gpu.sh $R none > $OUT/robust-summary.txt 2>&1
gzip -9 $OUT/robust.log $OUT/sanitize-new.log
python3 bench/torch_compare.py --rkc $R --heldout bench/heldout --kernels bias_grad \
	--dtype f32 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $OUT/tc_f32.csv > $OUT/tc_f32.txt 2>&1
cat $OUT/sanitize.txt $OUT/robust-summary.txt; tail -10 $OUT/tc_f32.txt
