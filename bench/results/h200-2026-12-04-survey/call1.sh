#!/bin/bash
# call 1: where the current build (32b6269) stands against torch.compile on the held-out kernels
# that measured under 0.9x in any earlier round (bf16, their seven shapes each), and on the
# few-rows suite at bf16 (three shapes a kernel). Binary: .carry/head.xz.
set -u
O=${OUT:-out}
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/head.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/call1-env.txt
K=bias_gelu_back,rms_colsum,bias_grad,colonly,dequant,linf_norm,swiglu_bwd,i8_layernorm,masked_pool,fp8_in_rms,ln_dx,wb_grad
timeout 330 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels $K --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/call1-tc_heldout_bf16.csv > $O/call1-tc_heldout_bf16.txt 2>&1
echo "heldout rc $?"
timeout 200 python3 bench/torch_compare.py --rkc /tmp/rkc --suites few_rows --dtype bf16 --shapes-per-kernel 3 --copy-gbps 4274 --workdir /tmp/tcw2 --csv $O/call1-tc_few_bf16.csv > $O/call1-tc_few_bf16.txt 2>&1
echo "few rc $?"
rm -f $O/torch_compare.json
for f in $O/call1-tc_heldout_bf16.csv $O/call1-tc_few_bf16.csv; do awk -F, 'NR>1 && $9<0.97 {print $2,$3,$4"x"$5,$7,$8,$9,$12}' $f; done
tail -4 $O/call1-tc_heldout_bf16.txt; tail -4 $O/call1-tc_few_bf16.txt
