#!/bin/bash
# call 1: grids of cooperative bands (coop=1 under grid, sums over rows): sanitizers, old picks against new, few_rows_bwd tables, tune
R=.carry/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader > $OUT/env.txt
K=testdata/kernels
for t in memcheck racecheck synccheck; do
  for c in "layer_norm_backward.rk --shape 3x50257 --dtype f32 --config persistent=0,r_block=1024,m_block=1,num_warps=4,vec=1,grid=24,cluster=8,coop=1" \
           "rms_norm_backward.rk --shape 1x1 --dtype f32 --config persistent=1,r_block=32,m_block=1,num_warps=1,vec=1,grid=2,cluster=2,coop=1" \
           "layer_norm_backward.rk --shape 5x4099 --dtype bf16 --config persistent=1,r_block=1024,m_block=1,num_warps=4,vec=1,grid=20,cluster=5,coop=1" \
           "layer_norm_backward.rk --shape 9x4096 --dtype bf16 --config persistent=1,r_block=1024,m_block=2,num_warps=2,vec=8,grid=8,cluster=4,coop=1,smem=1" \
           "layer_norm_backward.rk --shape 4x262144 --dtype bf16" \
           "rms_norm_backward.rk --shape 100x28672 --dtype f32"; do
    set -- $c
    compute-sanitizer --tool $t --error-exitcode 9 $R run $K/$c > /tmp/san.log 2>&1; rc=$?
    echo "$t $1 ${@:2}: rc=$rc $(grep -c ' ok' /tmp/san.log) ok-lines, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | head -1)"
    cat /tmp/san.log >> $OUT/sanitize.log
  done
done > $OUT/sanitize-summary.txt 2>&1
gzip -f $OUT/sanitize.log
cat $OUT/sanitize-summary.txt | cut -c1-160
LIMIT=200 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/bands-points.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
gzip -f $OUT/ab-run.log
cat $OUT/ab-table.txt | tail -30
for d in bf16 f32; do
  timeout 120 python3 bench/torch_compare.py --rkc $R --suites few_rows_bwd --dtype $d --shapes-per-kernel 6 --copy-gbps 4274 --csv $OUT/tc_frb_$d.csv --workdir /tmp/tcw > $OUT/tc_frb_$d.txt 2>&1
  tail -16 $OUT/tc_frb_$d.txt
done
for p in "layer_norm_backward 4x262144 bf16" "rms_norm_backward 16x16384 bf16"; do
  set -- $p
  timeout 70 $R tune $K/$1.rk --shape $2 --dtype $3 --top 16 --copy-gbps 4274 > $OUT/tune-$1-$2-$3.log 2>&1
  grep -E "TUNE|seed|best" $OUT/tune-$1-$2-$3.log | tail -4
done
