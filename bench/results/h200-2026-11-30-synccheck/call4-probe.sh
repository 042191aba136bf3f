#!/bin/bash
one() { local out; out=$(timeout 60 compute-sanitizer "$@" 2>&1); echo "rc=$? errs=$(grep -c 'error detected' <<<"$out") $(grep 'ERROR SUMMARY' <<<"$out" | head -1) $(grep -o 'at [a-zA-Z_0-9<>()]*+0x[0-9a-f]*' <<<"$out" | head -1) :: $*"; echo "=== $*" >> $OUT/sync4_full.log; echo "$out" | tail -14 >> $OUT/sync4_full.log; }
nvcc -arch=sm_90 -O2 -o /tmp/cl .carry/cl.cu 2>&1 | tail -3
for a in "16 66 70001 1 2" "16 66 70001 0 2" "16 132 70001 1 2" "16 132 70001 1 1" "8 132 70001 1 2"; do one --tool synccheck --error-exitcode 9 --print-limit 2 /tmp/cl $a; done
one --tool memcheck --error-exitcode 9 --print-limit 2 /tmp/cl 16 66 70001 1 2
for a in "16 66 70001 1 2" "16 132 70001 1 2" "16 66 70001 3 2"; do /tmp/cl $a; done
