#!/bin/bash
# call 3: steps=1 (a persistent row's tail a vector at a time) chosen by the policy: sanitizers,
# the moved picks and off-suite points of the class against the old pick, steps=1 forced at
# points outside the rule, then the fp32 torch.compile table
R=.carry/rkc
for t in memcheck racecheck synccheck; do
  for c in "layer_norm.rk --shape 3x50257 --dtype f32 --config steps=1" \
           "layer_norm.rk --shape 5x10240 --dtype f32" \
           "fused_add_layernorm.rk --shape 5x4099 --dtype bf16 --config steps=1" \
           "welford.rk --shape 3x16384 --dtype f32 --config persistent=1,r_block=16384,m_block=1,num_warps=16,vec=4,split=1,steps=1" \
           "rms_norm.rk --shape 1001x41 --dtype bf16 --config steps=1"; do
    set -- $c
    compute-sanitizer --tool $t --error-exitcode 9 $R run testdata/kernels/$c > /tmp/san.log 2>&1; rc=$?
    echo "$t $1 ${@:2}: rc=$rc $(grep -c ' ok' /tmp/san.log) ok-lines, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | head -1)"
    cat /tmp/san.log >> $OUT/sanitize.log
  done
done
gzip -f $OUT/sanitize.log
LIMIT=200 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts3.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
gzip -f $OUT/ab/ab.txt $OUT/ab-run.log
cat $OUT/ab-table.txt
timeout 300 python3 bench/torch_compare.py --rkc $R --suites core,transfer --dtype f32 --copy-gbps 4274 --csv $OUT/tc_ct_f32.csv --workdir /tmp/tcw > $OUT/tc_ct_f32.txt 2>&1
tail -25 $OUT/tc_ct_f32.txt
