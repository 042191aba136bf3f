#!/bin/bash
# Where the column-sum kernels lose: rkc tune at the points furthest under torch.compile, then
# the seven new kernels at fp32 against torch.compile.
set -u
R=/tmp/rkc; gunzip -c .carry/rkc.gz > $R; chmod +x $R
for pt in "bias_grad 262144x64" "bias_grad 1048576x32" "bias_grad 8x1000003" "bias_gelu_back 8x1000003" "bias_gelu_back 1024x131072" "bias_grad 1024x131072"; do
	set -- $pt
	timeout 150 $R tune bench/heldout/$1.rk --shape $2 --dtype bf16 --top 16 --no-check --copy-gbps 4274 > $OUT/tune-$1-$2.txt 2>&1
	echo "== $1 $2"; grep -iE "seed|best|rank" $OUT/tune-$1-$2.txt | head -6
done
python3 bench/torch_compare.py --rkc $R --heldout bench/heldout --kernels bias_grad,bias_gelu_back,softcap_ce,rms_fp8,minmax,bce,l1norm \
	--dtype f32 --shapes-per-kernel 3 --copy-gbps 4274 --workdir /tmp/tcw --csv $OUT/tc_f32.csv > $OUT/tc_f32.txt 2>&1
tail -26 $OUT/tc_f32.txt
# the check against the reference rounded to the output's type (e4m3's 3 bits), at bf16 again
python3 bench/torch_compare.py --rkc $R --heldout bench/heldout --kernels rms_fp8 \
	--dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $OUT/tc_fp8_bf16.csv > $OUT/tc_fp8_bf16.txt 2>&1
tail -10 $OUT/tc_fp8_bf16.txt
