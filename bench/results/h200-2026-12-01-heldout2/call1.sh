#!/bin/bash
# call 1: six new held-out kernels checked at odd shapes in three dtypes, memcheck at two shapes
# each; all 18 held-out kernels against torch.compile in bf16 at every shape
mkdir -p $OUT
NEW="softmax_backward log_softmax log_softmax_backward entropy swiglu_norm masked_mean"
timeout 100 bash -c "for k in $NEW; do for dt in bf16 f16 f32; do .carry/rkc run bench/heldout/\$k.rk --shape 1x1 --shape 3x7 --shape 5x1000 --shape 64x4097 --shape 4x151936 --shape 2x1048576 --shape 3x50257 --dtype \$dt --inputs bench/heldout/inputs.json --check || echo \"EXIT \$? \$k \$dt\"; done; done" > $OUT/odd.txt 2>&1
echo "odd: $(grep -c 'RESULT.*status=ok' $OUT/odd.txt) ok, $(grep -c 'status=FAIL\|status=ERROR' $OUT/odd.txt) bad, $(grep -c '^EXIT' $OUT/odd.txt) exits"
grep 'status=FAIL\|status=ERROR\|^EXIT' $OUT/odd.txt | head
timeout 80 bash -c "for k in $NEW; do for s in 3x50257 1x1000003; do compute-sanitizer --tool memcheck --error-exitcode 9 .carry/rkc run bench/heldout/\$k.rk --shape \$s --dtype bf16 --check > /tmp/ms.txt 2>&1; echo \"memcheck \$k \$s rc=\$? \$(grep -c 'status=ok' /tmp/ms.txt) ok \$(grep 'ERROR SUMMARY' /tmp/ms.txt)\"; done; done" > $OUT/memcheck.txt 2>&1
cat $OUT/memcheck.txt
timeout 400 python3 bench/torch_compare.py --rkc .carry/rkc --heldout bench/heldout --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $OUT/tc_heldout_bf16.csv > $OUT/tc_heldout_bf16.txt 2>&1
echo "== tc bf16"; grep -v "^heldout \|^device" $OUT/tc_heldout_bf16.txt | tail -6
python3 -c "
import csv
for r in csv.DictReader(open('$OUT/tc_heldout_bf16.csv')):
    print(r['kernel'], r['M']+'x'+r['N'], r.get('rkc_us'), r.get('torch_us'), r.get('speedup'), r.get('rkc_pct_copy'), r.get('torch_pct_copy'), r['rkc_ok'], (r.get('error') or '')[:80])
"
