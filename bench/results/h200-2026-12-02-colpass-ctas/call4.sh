#!/bin/bash
# Call 4: rkc tune at the held-out colsum points furthest under torch.compile (call 3), and a
# few forced column-pass configs for bias_grad bf16 1024x131072.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
for a in "bias_grad bf16 1024x131072" "bias_grad bf16 262144x64" "colonly f32 8x1000003" "colonly f32 1024x131072"; do
	set -- $a
	timeout 140 $R tune bench/heldout/$1.rk --dtype $2 --shape $3 --top 8 --copy-gbps 4274 >"$OUT/tune-$1-$2-$3.txt" 2>&1
	echo "tune $a: exit $?"
	grep -E "^ +[0-9]+ +[0-9a-z] |^seed " "$OUT/tune-$1-$2-$3.txt" | cut -c1-120 | head -14
done
