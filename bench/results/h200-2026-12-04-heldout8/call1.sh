#!/bin/bash
# call 1: the four round-8 held-out kernels (cov_corr, logcosh, ln_dx, swiglu_bwd) at odd shapes
# in bf16 and fp32, dense and padded by 16, memcheck on each (bench/robust_gpu.sh), then against
# torch.compile at their held-out shapes, bf16. Binary: .carry/new.xz (the commit of
# bench/results/h200-2026-12-04-regions-copies.md's section 5).
set -u
O=${OUT:-out}
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/new.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/env.txt
K="cov_corr logcosh ln_dx swiglu_bwd"
H=$(for k in $K; do printf "bench/heldout/$k.rk "; done)
mkdir -p /tmp/empty
OUT=$O KERNELS="$H" POLICIES=rkc DTYPES="bf16 f32" SHAPES="1x1 3x7 5x1000 64x4097 1000x896 4x151936 65537x96" PAD=16 JOBS=8 MEMCHECK=4 timeout 85 bash bench/robust_gpu.sh /tmp/rkc /tmp/empty > $O/robust-summary.txt 2>&1
gzip -9 $O/robust.log 2>/dev/null; tar czf $O/robust.tgz -C $O robust 2>/dev/null; rm -rf $O/robust
timeout 105 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels cov_corr,logcosh,ln_dx,swiglu_bwd --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_bf16.csv > $O/tc_bf16.txt 2>&1
rm -f $O/torch_compare.json
tail -12 $O/robust-summary.txt; tail -40 $O/tc_bf16.txt | cut -c1-130
