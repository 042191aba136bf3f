#!/bin/bash
# call 3: one-row sums over rows on one cooperative band (the one slot): sanitizers, old picks against new
R=.carry/rkc
K=testdata/kernels
mkdir -p $OUT/keep
for t in memcheck racecheck synccheck; do
  for c in "$K/rms_norm_backward.rk --shape 1x262144 --dtype bf16" "$K/layer_norm_backward.rk --shape 1x1000003 --dtype f32" \
           "bench/heldout/colonly.rk --shape 1x50257 --dtype bf16 --inputs bench/heldout/inputs.json"; do
    set -- $c
    compute-sanitizer --tool $t --error-exitcode 9 $R run $c > /tmp/san.log 2>&1; rc=$?
    echo "$t $1 ${@:2}: rc=$rc $(grep -c ' ok' /tmp/san.log) ok-lines, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | head -1)"
    cat /tmp/san.log >> $OUT/keep/sanitize.log
  done
done > $OUT/keep/sanitize-summary.txt 2>&1
cut -c1-170 $OUT/keep/sanitize-summary.txt
LIMIT=300 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/bands-one.txt > $OUT/keep/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
cp $OUT/ab/ab.txt $OUT/keep/ab.txt; rm -rf $OUT/ab
awk '{printf "%s %s %s", $1, $2, $3; for(i=4;i<=NF;i++) if($i ~ /^[0-9]+\.[0-9]+$/) printf " %s", $i; print ""}' $OUT/ab-table.txt | tail -26
tar czf $OUT/keep.tgz -C $OUT keep && rm -rf $OUT/keep
