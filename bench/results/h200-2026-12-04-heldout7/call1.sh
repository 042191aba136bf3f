#!/bin/bash
# call 1: whole chunks at scalar accesses under memcheck, racecheck and synccheck (the new lines
# of bench/sanitize_new.sh), then the seven round-7 held-out kernels at odd shapes in every dtype
# (bench/robust_gpu.sh, padded rows, memcheck on each)
set -u
O=${OUT:-out}
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/env.txt
P='33x65537|3x1000003 --dtype bf16 --batch|4x1000003|1x1000003 --dtype bf16 --batch|64x100003|37x262147|3x70001|vec=1,cluster=4,smem=1|layer_norm.rk --shape 1x1 '
OUT=$O timeout 330 bash bench/sanitize_new.sh /tmp/rkc "$P" > $O/sanitize-summary.txt 2>&1
gzip -9 $O/sanitize-new.log
K="ce_bias_grad masked_pool f32_residual_rms upcast_log_softmax int_weighted_mean quant_err_cols kd_temp"
H=$(for k in $K; do printf "bench/heldout/$k.rk "; done)
mkdir -p /tmp/empty
OUT=$O KERNELS="$H" POLICIES=rkc PAD=16 JOBS=8 MEMCHECK=7 timeout 230 bash bench/robust_gpu.sh /tmp/rkc /tmp/empty > $O/robust-summary.txt 2>&1
gzip -9 $O/robust.log 2>/dev/null; tar czf $O/robust.tgz -C $O robust 2>/dev/null; rm -rf $O/robust
cat $O/sanitize-summary.txt; tail -14 $O/robust-summary.txt
