#!/bin/bash
# Call 3: the held-out kernels with sums over rows (bias_grad, bias_gelu_back, colonly) against
# torch.compile at their seven held-out shapes, bf16 and fp32, on the build of e920f68.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
W=/tmp/tcw; rm -rf $W; mkdir -p $W
export TORCHINDUCTOR_CACHE_DIR="$W/ind" TRITON_CACHE_DIR="$W/tri"
for d in bf16 f32; do
	timeout 270 python3 bench/torch_compare.py --rkc $R --heldout bench/heldout --kernels bias_grad,bias_gelu_back,colonly --dtype $d --shapes-per-kernel 7 --copy-gbps 4274 --workdir $W/ptx-$d --csv "$OUT/tc_$d.csv" >"$OUT/tc_$d.txt" 2>&1
	echo "tc $d: exit $?"
done
sed -i "s#$OUT#OUT#g" "$OUT"/tc_*.txt
for d in bf16 f32; do grep -E "^heldout +[a-z]|geomean" "$OUT/tc_$d.txt" | cut -c1-130; done
