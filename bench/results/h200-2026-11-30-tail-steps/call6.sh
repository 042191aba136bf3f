#!/bin/bash
# call 6: the steps rule on a kernel it was not written for (bench/heldout/var2.rk, a two-pass
# variance norm with an [M] bias): memcheck, old pick against new; rkc tune at layer_norm bf16 2048x10240
R=.carry/rkc
for c in "--shape 3x12289 --dtype f32 --config persistent=1,r_block=14336,m_block=1,num_warps=16,vec=4,split=1,steps=1" "--shape 2048x12288 --dtype bf16"; do
  compute-sanitizer --tool memcheck --error-exitcode 9 $R run bench/heldout/var2.rk --inputs bench/heldout/inputs.json $c > /tmp/san.log 2>&1; rc=$?
  echo "memcheck var2 $c: rc=$rc $(grep -c ' ok' /tmp/san.log) ok-lines, $(grep -E 'ERROR SUMMARY' /tmp/san.log | head -1)"
  cat /tmp/san.log >> $OUT/sanitize.log
done
gzip -f $OUT/sanitize.log
LIMIT=150 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts6.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
gzip -f $OUT/ab/ab.txt $OUT/ab-run.log
cut -c1-80 $OUT/ab-table.txt
timeout 120 $R tune testdata/kernels/layer_norm.rk --shape 2048x10240 --dtype bf16 --top 24 --copy-gbps 4274 > $OUT/tune-layer_norm-bf16-2048x10240.log 2>&1
tail -4 $OUT/tune-layer_norm-bf16-2048x10240.log | cut -c1-200
