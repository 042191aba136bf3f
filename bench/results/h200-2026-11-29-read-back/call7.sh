#!/bin/bash
# call 7: the read-back on rows kept on chip (h kept in shared memory in its output's type, not x
# and res): old build's PTX against new at the fused_add suite points it changes (24) and 14
# batch-invariant picks it moves; sanitizers on it
mkdir -p $OUT/ab
LIMIT=210 COPY=4274 OUT=$OUT/ab timeout 230 bash bench/ab.sh .carry/rkc .carry/pts.txt > $OUT/ab-report.txt 2>&1
OUT=$OUT timeout 100 bash bench/sanitize_new.sh .carry/rkc fused_add_ 2>&1 | tail -3
echo ===; sed 's/  {.*//' $OUT/ab-report.txt | tail -42
