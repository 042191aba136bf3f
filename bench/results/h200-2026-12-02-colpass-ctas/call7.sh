#!/bin/bash
# Call 7: whole column passes where a thread makes over 20 round trips at 4 CTAs an SM (the rule
# leaves the pick): the pick against 4 an SM on one wave and grids of small slices over several
# waves; then the held-out colsum kernels against torch.compile on the final build.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
LIMIT=300 bash .carry/s57/sweep7.sh $R .carry/s57/points7.txt "$OUT/sweep.txt"
python3 .carry/s57/table.py "$OUT/sweep.txt" > "$OUT/table.txt"
cat "$OUT/table.txt" | head -16
W=/tmp/tcw; rm -rf $W; mkdir -p $W
export TORCHINDUCTOR_CACHE_DIR="$W/ind" TRITON_CACHE_DIR="$W/tri"
for d in bf16 f32; do
	timeout 120 python3 bench/torch_compare.py --rkc $R --heldout bench/heldout --kernels bias_grad,bias_gelu_back,colonly --dtype $d --shapes-per-kernel 7 --copy-gbps 4274 --workdir $W/ptx-$d --csv "$OUT/tc_$d.csv" >"$OUT/tc_$d.txt" 2>&1
	echo "tc $d: exit $?"
done
sed -i "s#$OUT#OUT#g" "$OUT"/tc_*.txt
for d in bf16 f32; do grep -E "^heldout +[a-z]|geomean" "$OUT/tc_$d.txt" | cut -c1-130; done
