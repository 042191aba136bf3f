#!/bin/bash
# call 1: a persistent row's tail a vector at a time: sanitizers on the new code, then old PTX against new
R=.carry/rkc
tar xzf .carry/ab.tgz
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader > $OUT/env.txt
for t in memcheck racecheck synccheck; do
  for c in "layer_norm.rk --shape 3x50257 --dtype f32" \
           "fused_add_layernorm.rk --shape 5x4099 --dtype bf16" \
           "gated_rmsnorm.rk --shape 1x1 --dtype f32" \
           "rms_norm.rk --shape 1001x41 --dtype bf16" \
           "layer_norm_backward.rk --shape 7x1023 --dtype f32" \
           "cross_entropy_backward.rk --shape 3x50257 --dtype bf16" \
           "layer_norm.rk --shape 2x10240 --dtype f32 --config persistent=1,r_block=10240,m_block=1,num_warps=8,vec=4"; do
    set -- $c
    compute-sanitizer --tool $t --error-exitcode 9 $R run testdata/kernels/$c > /tmp/san.log 2>&1; rc=$?
    echo "$t $1 ${@:2}: rc=$rc $(grep -c ' ok' /tmp/san.log) ok-lines, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | head -1)"
    cat /tmp/san.log >> $OUT/sanitize.log
  done
done
gzip -f $OUT/sanitize.log
LIMIT=470 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts1.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
gzip -f $OUT/ab/ab.txt $OUT/ab-run.log
tail -4 $OUT/ab-table.txt
