#!/bin/bash
# usage: moved.sh OLD NEW: picks that differ over the colsum kernels x shapes
OLD=$1 NEW=$2
K=$(grep -l colsum testdata/kernels/*.rk bench/heldout/*.rk tests/heuristics/kernels/*.rk tests/codegen/*.rk bench/results/h200-2026-12-02-colpass-ctas/kernels/*.rk)
for k in $K; do for d in bf16 fp32; do for s in 64x50257 128x20011 255x9001 256x20011 260x9001 300x20011 512x30001 777x13001 1000x20011 1000x50257 2000x20011 2000x8191 2500x40009 4096x50257 4096x20011 8192x12289 3000x7001 150x131071 16384x4099 1024x131071; do
  o=$($OLD explain $k --dtype $d --shape $s 2>/dev/null | grep -E '^  (persistent|looped)' | sed 's/  */ /g')
  n=$($NEW explain $k --dtype $d --shape $s 2>/dev/null | grep -E '^  (persistent|looped)' | sed 's/  */ /g')
  [ "$o" != "$n" ] && echo "$k $d $s |$o |$n"
done; done; done
