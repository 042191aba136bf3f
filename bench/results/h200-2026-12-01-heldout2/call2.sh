#!/bin/bash
# call 2: rkc tune at the held-out points furthest under torch.compile; masked_mean and the new
# kernels' fp32 points against torch.compile
mkdir -p $OUT
for p in "dequant 1048576x32" "mse 262144x64" "mse 16384x1024" "colonly 1024x131072" "colonly 8x1000003" "var2 262144x64" "softmax_backward 262144x64" "dequant 16384x1024"; do
  set -- $p
  timeout 60 .carry/rkc tune bench/heldout/$1.rk --shape $2 --dtype bf16 --top 24 --no-check --copy-gbps 4274 > $OUT/tune_$1_$2.txt 2>&1
  echo "== $1 $2"; head -8 $OUT/tune_$1_$2.txt | cut -c1-150; grep "^TUNE" $OUT/tune_$1_$2.txt | cut -c1-200
done
timeout 150 python3 bench/torch_compare.py --rkc .carry/rkc --heldout bench/heldout --kernels masked_mean --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --json $OUT/j1.json --csv $OUT/tc_mm_bf16.csv > $OUT/tc_mm_bf16.txt 2>&1
timeout 200 python3 bench/torch_compare.py --rkc .carry/rkc --heldout bench/heldout --kernels softmax_backward,log_softmax,log_softmax_backward,entropy,swiglu_norm,masked_mean --dtype f32 --shapes-per-kernel 3 --copy-gbps 4274 --workdir /tmp/tcw --json $OUT/j2.json --csv $OUT/tc_new_f32.csv > $OUT/tc_new_f32.txt 2>&1
for f in tc_mm_bf16 tc_new_f32; do echo "== $f"; grep "geomean" $OUT/$f.txt; python3 -c "
import csv
for r in csv.DictReader(open('$OUT/$f.csv')):
    print(r['kernel'], r['M']+'x'+r['N'], r.get('rkc_us'), r.get('torch_us'), r.get('speedup'), r.get('rkc_pct_copy'), r.get('torch_pct_copy'), r['rkc_ok'], (r.get('error') or '')[:80])
"; done
