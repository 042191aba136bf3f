#!/bin/bash
# call 2: cooperative bands off the suites (old picks against new), the 5x4099 sanitizer line with ahead=0, tune at the furthest few_rows_bwd points
R=.carry/rkc
K=testdata/kernels
mkdir -p $OUT/keep
for t in memcheck racecheck synccheck; do
  for c in "layer_norm_backward.rk --shape 5x4099 --dtype bf16 --config persistent=1,r_block=1024,m_block=1,num_warps=4,vec=1,grid=20,cluster=5,coop=1,ahead=0" \
           "rms_norm_backward.rk --shape 3x50257 --dtype bf16" "layer_norm_backward.rk --shape 2x1000003 --dtype f32"; do
    set -- $c
    compute-sanitizer --tool $t --error-exitcode 9 $R run $K/$c > /tmp/san.log 2>&1; rc=$?
    echo "$t $1 ${@:2}: rc=$rc $(grep -c ' ok' /tmp/san.log) ok-lines, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | head -1)"
    cat /tmp/san.log >> $OUT/keep/sanitize.log
  done
done > $OUT/keep/sanitize-summary.txt 2>&1
cut -c1-200 $OUT/keep/sanitize-summary.txt
LIMIT=330 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/bands-off2.txt > $OUT/keep/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
cp $OUT/ab/ab.txt $OUT/keep/ab.txt; rm -rf $OUT/ab
tail -48 $OUT/ab-table.txt | cut -c1-100
for p in "layer_norm_backward 100x28672 bf16" "rms_norm_backward 100x28672 bf16"; do
  set -- $p
  timeout 60 $R tune $K/$1.rk --shape $2 --dtype $3 --top 12 --copy-gbps 4274 > $OUT/keep/tune-$1-$2-$3.log 2>&1
  grep -E "^seed" $OUT/keep/tune-$1-$2-$3.log | tail -2
  grep -E "^ +[0-9]+ " $OUT/keep/tune-$1-$2-$3.log | head -12 | cut -c1-110
done
tar czf $OUT/keep.tgz -C $OUT keep && rm -rf $OUT/keep
