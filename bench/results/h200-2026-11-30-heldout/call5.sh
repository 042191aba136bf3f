#!/bin/bash
# call 5: the final build: tiny_rows and the fused_add kernels' transfer shapes against torch.compile; the held-out kernels at fp32
mkdir -p $OUT
timeout 240 python3 bench/torch_compare.py --rkc .carry/rkc --suites tiny_rows:4 --dtype bf16 --copy-gbps 4274 --csv $OUT/tc_tiny_rows.csv > $OUT/tc_tiny_rows.txt 2>&1
timeout 150 python3 bench/torch_compare.py --rkc .carry/rkc --heldout bench/heldout --dtype f32 --shapes-per-kernel 3 --copy-gbps 4274 --csv $OUT/tc_heldout_f32.csv > $OUT/tc_heldout_f32.txt 2>&1
timeout 120 python3 bench/torch_compare.py --rkc .carry/rkc --suites core,transfer --kernels fused_add_rmsnorm,fused_add_layernorm --dtype bf16 --shapes-per-kernel 4 --copy-gbps 4274 --csv $OUT/tc_fused_add.csv > $OUT/tc_fused_add.txt 2>&1
for f in tc_tiny_rows tc_heldout_f32 tc_fused_add; do echo "== $f"; grep geomean $OUT/$f.txt; python3 -c "
import csv
for r in csv.DictReader(open('$OUT/$f.csv')):
    if (r.get('speedup') and float(r['speedup'])<1.0) or r['rkc_ok']!='ok': print(r['kernel'], r['M']+'x'+r['N'], r.get('rkc_us'), r.get('torch_us'), r.get('speedup'), r['rkc_ok'])
"; done
