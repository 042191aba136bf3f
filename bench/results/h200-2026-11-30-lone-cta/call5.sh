#!/bin/bash
# call 5: the split rows' warp merge: old against new PTX at the split picks and forced high splits; rkc tune; sanitizers
R=.carry/rkc
for t in memcheck racecheck synccheck; do
  for c in "sum.rk --shape 1x4194304 --dtype f32 --config persistent=1,r_block=8192,m_block=1,num_warps=8,vec=4,split=512,min_ctas=4" \
           "kl_div.rk --shape 3x1000003 --dtype bf16 --config persistent=0,r_block=4096,m_block=1,num_warps=4,vec=8,split=270" \
           "long_sum.rk --shape 5x70001 --dtype f32 --config persistent=0,r_block=512,m_block=1,num_warps=1,vec=1,split=100"; do
    set -- $c
    compute-sanitizer --tool $t --error-exitcode 9 $R run testdata/kernels/$c > /tmp/san.log 2>&1; rc=$?
    echo "$t $1 ${@:2}: rc=$rc $(grep -c 'ok' /tmp/san.log) ok-lines, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | head -1)"
    cat /tmp/san.log >> $OUT/sanitize.log
  done
done
gzip -f $OUT/sanitize.log
for p in "sum f32 1x4194304" "sum bf16 1x4194304" "long_sum f32 1x1000003"; do
  set -- $p
  timeout 100 $R tune testdata/kernels/$1.rk --shape $3 --dtype $2 --top 48 --copy-gbps 4274 > $OUT/tune-$1-$2-$3.log 2>&1
  echo "$p: $(grep '^seed' $OUT/tune-$1-$2-$3.log)"
done
tar czf $OUT/tune-logs.tgz -C $OUT $(cd $OUT && ls tune-*.log) && rm -f $OUT/tune-*.log
LIMIT=330 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts5.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
gzip -f $OUT/ab/ab.txt $OUT/ab-run.log
tail -3 $OUT/ab-table.txt
