#!/bin/bash
# call 6: the final rewrites (the 2 and GELU's 0.5 cancelled too): old PTX against new at gelu_tanh_gated and two kernels written with pow; torch.compile; sanitizers
R=.carry/rkc
K=testdata/kernels
mkdir -p $OUT/keep; tar xzf .carry/ab.tgz
LIMIT=300 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/s45/call6-points.txt > $OUT/keep/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/keep/ab-table.txt 2>&1
cp $OUT/ab/ab.txt $OUT/keep/ab.txt; rm -rf $OUT/ab
tail -42 $OUT/keep/ab-table.txt | cut -c1-120
for d in bf16 f32; do
  python3 bench/torch_compare.py --rkc $R --suites training --kernels gelu_tanh_gated --shapes-per-kernel 4 --dtype $d --copy-gbps 4274 --csv $OUT/keep/tc_gelu_$d.csv --workdir /tmp/tcw > $OUT/keep/tc_gelu_$d.txt 2>&1
  grep -v "^training," $OUT/keep/tc_gelu_$d.txt | tail -7 | cut -c1-150
done
for c in "$K/gelu_tanh_gated.rk --shape 1000x4097 --dtype bf16" "$K/gelu_tanh_gated.rk --shape 64x65536 --dtype f32" \
         "tests/codegen/tanh_rewrite.rk --shape 7x50257 --dtype bf16" "tests/codegen/tanh_rewrite.rk --shape 1x1 --dtype f32" \
         "tests/codegen/pow_rewrite.rk --shape 5x4099 --dtype f16" "tests/codegen/pow_rewrite.rk --shape 3x1000003 --dtype f32"; do
  for t in memcheck racecheck; do
    compute-sanitizer --tool $t --error-exitcode 9 $R run $c --check > /tmp/san.log 2>&1; rc=$?
    echo "$t $c: rc=$rc $(grep -c ' ok' /tmp/san.log) ok-lines, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | head -1)"
    cat /tmp/san.log >> $OUT/keep/sanitize.log
  done
done | tee $OUT/keep/sanitize-summary.txt | cut -c1-200
tar czf $OUT/keep.tgz -C $OUT keep && rm -rf $OUT/keep
