#!/bin/bash
# call 2: the whole-chunk sanitizer lines call 1 did not reach (its 330 s ran out at racecheck of a
# 120 MB layer_norm_backward, now a 9-row twin with the same config's workspace partials), then
# the seven round-7 held-out kernels against torch.compile at their held-out shapes
set -u
O=${OUT:-out}
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
P='9x262147|3x70001 --dtype bf16|vec=1,cluster=4,smem=1|layer_norm.rk --shape 1x1 '
OUT=$O timeout 200 bash bench/sanitize_new.sh /tmp/rkc "$P" > $O/sanitize-summary.txt 2>&1
gzip -9 $O/sanitize-new.log
K=ce_bias_grad,masked_pool,f32_residual_rms,upcast_log_softmax,int_weighted_mean,quant_err_cols,kd_temp
timeout 230 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels $K --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_bf16.csv > $O/tc_bf16.txt 2>&1
timeout 140 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels $K --dtype f32 --shapes-per-kernel 3 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_f32.csv > $O/tc_f32.txt 2>&1
rm -f $O/torch_compare.json
cat $O/sanitize-summary.txt; tail -60 $O/tc_bf16.txt | cut -c1-130; tail -26 $O/tc_f32.txt | cut -c1-130
