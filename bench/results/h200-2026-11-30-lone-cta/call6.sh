#!/bin/bash
# call 6: the warp merge's loop fixed: forced high splits checked and under the sanitizers; rkc tune; few_rows
R=.carry/rkc
for c in "sum.rk --shape 1x4194304 --dtype f32 --config persistent=1,r_block=8192,m_block=1,num_warps=8,vec=4,split=512,min_ctas=4" \
         "sum.rk --shape 1x4194304 --dtype bf16 --config persistent=0,r_block=2048,m_block=1,num_warps=4,vec=8,split=1000" \
         "kl_div.rk --shape 2x1000003 --dtype f32 --config persistent=0,r_block=2048,m_block=1,num_warps=4,vec=4,split=300" \
         "long_sum.rk --shape 3x4194304 --dtype bf16 --config persistent=0,r_block=4096,m_block=1,num_warps=8,vec=8,split=520"; do
  $R run testdata/kernels/$c > /tmp/r.log 2>&1; echo "run $c: $(grep -c ' ok$' /tmp/r.log) ok, $(grep -c FAIL /tmp/r.log) FAIL"; cat /tmp/r.log >> $OUT/checks.log
done
for t in memcheck racecheck synccheck; do
  c="sum.rk --shape 1x4194304 --dtype f32 --config persistent=1,r_block=8192,m_block=1,num_warps=8,vec=4,split=512,min_ctas=4"
  compute-sanitizer --tool $t --error-exitcode 9 $R run testdata/kernels/$c > /tmp/san.log 2>&1; rc=$?
  echo "$t: rc=$rc $(grep -c ' ok$' /tmp/san.log) ok, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | head -1)"; cat /tmp/san.log >> $OUT/checks.log
done
gzip -f $OUT/checks.log
timeout 100 $R tune testdata/kernels/sum.rk --shape 1x4194304 --dtype f32 --top 48 --copy-gbps 4274 > $OUT/tune-sum-f32-1x4194304.log 2>&1
grep '^seed' $OUT/tune-sum-f32-1x4194304.log; grep -c "wrong results" $OUT/tune-sum-f32-1x4194304.log
for d in bf16 f32; do
  python3 bench/torch_compare.py --rkc $R --suites few_rows --dtype $d --shapes-per-kernel 100 --copy-gbps 4274 --csv $OUT/tc_few_rows_$d.csv --workdir /tmp/tcw > $OUT/tc_few_rows_$d.txt 2>&1
  tail -1 $OUT/tc_few_rows_$d.txt
done
