#!/bin/bash
# Where --regions' overhead at the large shapes comes from: plain, stamped at the default sampling,
# and with only the first and last row blocks stamped (the second copy of the row code alone).
set -u
for pt in "layer_norm 2048x152064" "dynamic_quant 2048x201088" "gelu_tanh_gated 8192x24576" "fused_add_rmsnorm 37x4194304" "gated_rmsnorm 1024x201088" "softmax 1024x262144"; do
	set -- $pt
	for v in plain default sparse plain2; do
		case $v in plain|plain2) a=();; default) a=(--regions);; sparse) a=(--regions --regions-every 1048576);; esac
		r=$(timeout 60 .carry/rkc run testdata/kernels/$1.rk --shape $2 --dtype bf16 --time --copy-gbps 4274 "${a[@]}" 2>&1 | grep '^RESULT' | sed 's/.* us=\([0-9.]*\).*/\1/')
		echo "$1 $2 $v $r"
	done
done | tee $OUT/overhead.txt
