#!/bin/bash
# call 6: the colsum kernels' picks over cooperative bands (few rows), whose PTX changed with
# L->wsc (the colsum regions' base moved at the launch's M), checked in three dtypes; memcheck
# and racecheck on two of them
set -u
O=${OUT:-out}
gunzip -c .carry/rkc.gz > /tmp/rkc && chmod +x /tmp/rkc
for k in testdata/kernels/rms_norm_backward.rk testdata/kernels/layer_norm_backward.rk bench/heldout/colonly.rk bench/heldout/rms_colsum.rk bench/heldout/ln_bwd_recompute.rk bench/heldout/moe_aux.rk; do
 for d in bf16 f16 f32; do
  timeout 60 /tmp/rkc run $k --shape 8x1000003 --shape 4x262144 --shape 64x50257 --shape 16x131072 --shape 2x8192 --dtype $d --check >> $O/runs.txt 2>&1 || echo "EXIT $? $k $d" >> $O/runs.txt
 done
done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/rkc run testdata/kernels/rms_norm_backward.rk --shape 64x50257 --dtype bf16 --check > $O/san-mem.txt 2>&1; echo "memcheck exit $?" >> $O/san.txt
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 /tmp/rkc run testdata/kernels/rms_norm_backward.rk --shape 4x262144 --dtype f32 --check > $O/san-race.txt 2>&1; echo "racecheck exit $?" >> $O/san.txt
grep -c "status=ok" $O/runs.txt; grep -v "status=ok" $O/runs.txt | grep -E "RESULT|EXIT|FAIL|error" | head; grep -o 'config={[^}]*}' $O/runs.txt | grep -c '"coop":1'; cat $O/san.txt; grep -h "ERROR SUMMARY" $O/san-*.txt
