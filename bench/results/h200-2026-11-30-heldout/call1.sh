#!/bin/bash
# call 1: the held-out kernels against torch.compile (bf16 every shape, fp32 four a kernel), and
# checked at odd shapes in three dtypes
mkdir -p $OUT
timeout 120 bash -c 'for k in bench/heldout/*.rk; do for dt in bf16 f16 f32; do .carry/rkc run $k --shape 1x1 --shape 3x7 --shape 5x1000 --shape 64x4097 --shape 4x151936 --shape 2x1048576 --dtype $dt --inputs bench/heldout/inputs.json --check || echo "EXIT $? $k $dt"; done; done' > $OUT/odd.txt 2>&1
echo "odd: $(grep -c 'RESULT.*status=ok' $OUT/odd.txt) ok, $(grep -c 'status=FAIL\|status=ERROR' $OUT/odd.txt) bad, $(grep -c '^EXIT' $OUT/odd.txt) exits"
grep 'status=FAIL\|status=ERROR\|^EXIT' $OUT/odd.txt | head
timeout 330 python3 bench/torch_compare.py --rkc .carry/rkc --heldout bench/heldout --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --csv $OUT/tc_heldout_bf16.csv > $OUT/tc_heldout_bf16.txt 2>&1
timeout 140 python3 bench/torch_compare.py --rkc .carry/rkc --heldout bench/heldout --dtype f32 --shapes-per-kernel 3 --copy-gbps 4274 --csv $OUT/tc_heldout_f32.csv > $OUT/tc_heldout_f32.txt 2>&1
for f in tc_heldout_bf16 tc_heldout_f32; do echo "== $f"; grep -v "^heldout \|^device" $OUT/$f.txt | tail -8; python3 -c "
import csv,sys
for r in csv.DictReader(open('$OUT/$f.csv')):
    print(r['kernel'], r['M']+'x'+r['N'], r.get('rkc_us'), r.get('torch_us'), r.get('speedup'), r.get('rkc_pct_copy'), r.get('torch_pct_copy'), r['rkc_ok'], (r.get('error') or '')[:80])
"; done
