#!/bin/bash
# Session 29, call 4: rkc tune with cand c (the seed's row over clusters) at the lone-row points
# and gelu_tanh_gated's training shapes; the training suite against torch.compile (bf16).
set -u
R=.carry/rkc
O=$OUT/s4
mkdir -p $O/tune
t0=$(date +%s)
while read k s d; do
	timeout 90 $R tune testdata/kernels/$k.rk --shape $s --dtype $d --top 2 --copy-gbps 4274 >$O/tune/$k.$s.$d.txt 2>&1
done <.carry/c_pts.txt
echo "tune: $(($(date +%s) - t0)) s"
grep -h TUNE $O/tune/*.txt | sed 's/ best_config.*//; s/copy_gbps=4274 //'
timeout 330 python3 bench/torch_compare.py --rkc $R --suites training --dtype bf16 --copy-gbps 4274 \
	--csv $O/tc_training_bf16.csv --workdir "$OUT/tcw" >$O/tc_training_bf16.txt 2>&1
echo "training: $(($(date +%s) - t0)) s"
tail -26 $O/tc_training_bf16.txt
cd $OUT && tar czf s4.tgz s4 && rm -rf s4
