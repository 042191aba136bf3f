#!/bin/bash
# synccheck bisect of five_sums f16 33x70001 forced looped config
R=.carry/rkc; K=tests/analysis/plan/five_sums.rk
one() { # name shape dtype config [kernel]
  local k=${5:-$K}
  local out; out=$(timeout 60 compute-sanitizer --tool synccheck --error-exitcode 9 --print-limit 2 $R run $k --shape $2 --dtype $3 --check ${4:+--config $4} 2>&1); local rc=$?
  local n; n=$(grep -c "Barrier error" <<<"$out")
  echo "$1 rc=$rc errs=$n $2 $3 $4 $(grep -o 'at [a-z_]*+0x[0-9a-f]*' <<<"$out" | head -1)"
  echo "=== $1" >> $OUT/sync_full.log; echo "$out" | tail -30 >> $OUT/sync_full.log
}
B=persistent=0,r_block=4096,m_block=1,num_warps=16,vec=8
one base 33x70001 f16 $B
one c16s1 33x70001 f16 $B,cluster=16,smem=1,min_ctas=2
one c1s0 33x70001 f16 $B,cluster=1,smem=0
one c4s1 33x70001 f16 $B,cluster=4,smem=1
one c16s0 33x70001 f16 $B,cluster=16,smem=0
one c2s0 33x70001 f16 $B,cluster=2,smem=0
one n70000 33x70000 f16 $B,cluster=16,smem=1
one n70008 33x70008 f16 $B,cluster=16,smem=1
one fp32 33x70001 fp32 persistent=0,r_block=2048,m_block=1,num_warps=16,vec=4,cluster=16,smem=1
one w8 33x70001 f16 persistent=0,r_block=2048,m_block=1,num_warps=8,vec=8,cluster=16,smem=1
one w4 33x70001 f16 persistent=0,r_block=1024,m_block=1,num_warps=4,vec=8,cluster=16,smem=1
one vec1 33x70001 f16 persistent=0,r_block=512,m_block=1,num_warps=16,vec=1,cluster=16,smem=1
one sum 33x70001 f16 $B,cluster=16,smem=0 testdata/kernels/sum.rk
one sumc1 33x70001 f16 $B,cluster=1,smem=0 testdata/kernels/sum.rk
one softmax 33x70001 f16 $B,cluster=16,smem=1 testdata/kernels/softmax.rk
one m1 1x70001 f16 $B,cluster=16,smem=1
one pick 33x70001 f16 ""
