#!/bin/bash
# call 2: the read-back (fused_add_*: a later pass loads back the stored h), old PTX against new
# at the 26 points whose PTX it changes; sanitizers on the read-back
mkdir -p $OUT/ab
LIMIT=200 COPY=4274 OUT=$OUT/ab timeout 230 bash bench/ab.sh .carry/rkc .carry/pts.txt > $OUT/ab-report.txt 2>&1
OUT=$OUT timeout 200 bash bench/sanitize_new.sh .carry/rkc fused_add_ 2>&1 | tail -5
echo ===; sed 's/  {.*//' $OUT/ab-report.txt | tail -32
