#!/bin/bash
one() { local out; out=$(timeout 60 compute-sanitizer --tool synccheck --error-exitcode 9 --print-limit 2 "$@" 2>&1); echo "rc=$? errs=$(grep -c 'Barrier error' <<<"$out") $(grep -o 'at [a-zA-Z_0-9]*+0x[0-9a-f]*' <<<"$out" | head -1) $(grep -o 'thread ([0-9]*,0,0) in block ([0-9]*' <<<"$out" | head -1) :: $*"; echo "=== $*" >> $OUT/sync3_full.log; echo "$out" | tail -12 >> $OUT/sync3_full.log; }
nvcc -arch=sm_90 -O2 -o /tmp/cl .carry/cl.cu 2>&1 | tail -3
for a in "16 33 70001 1 2" "16 33 70001 3 2" "16 33 70001 0 2" "16 66 70001 3 2" "8 66 70001 3 2" "4 66 70001 3 2" "1 66 70001 3 2" "16 33 70001 3 1"; do one /tmp/cl $a; done
/tmp/cl 16 33 70001 3 2
