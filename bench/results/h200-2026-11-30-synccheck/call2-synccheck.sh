#!/bin/bash
R=.carry/rkc; K=tests/analysis/plan/five_sums.rk
B=persistent=0,r_block=4096,m_block=1,num_warps=16,vec=8
one() { local out; out=$(timeout 60 compute-sanitizer --tool synccheck --error-exitcode 9 --print-limit 2 "$@" 2>&1); echo "rc=$? errs=$(grep -c 'Barrier error' <<<"$out") $(grep -o 'at [a-z_]*+0x[0-9a-f]*' <<<"$out" | head -1) $(grep -o 'block ([0-9]*' <<<"$out" | head -1) :: $*" | sed 's/.carry\/rkc run tests\/analysis\/plan\///'; echo "=== $*" >> $OUT/sync2_full.log; echo "$out" | tail -12 >> $OUT/sync2_full.log; }
one $R run $K --shape 33x70001 --dtype f16 --check --config $B,cluster=8,smem=0
one $R run $K --shape 33x70001 --dtype f16 --check --config $B,cluster=16,smem=0,min_ctas=1
one $R run $K --shape 2x70001 --dtype f16 --check --config $B,cluster=16,smem=0
one $R run $K --shape 9x70001 --dtype f16 --check --config $B,cluster=16,smem=0
one $R run $K --shape 33x300001 --dtype f16 --check --config $B,cluster=16,smem=0
one $R run testdata/kernels/layer_norm.rk --shape 33x70001 --dtype f16 --check --config $B,cluster=16,smem=0
nvcc -arch=sm_90 -O2 -o /tmp/cl .carry/cl.cu 2>&1 | tail -3
for a in "16 33 70001 1" "16 33 70001 0" "8 33 70001 1" "16 1 70001 1" "16 9 70001 1"; do one /tmp/cl $a; /tmp/cl $a; done
