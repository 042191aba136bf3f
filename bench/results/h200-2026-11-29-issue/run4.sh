#!/bin/bash
# call 4: old (2f82d0d) against new at 44 bf16 golden points, 2 a kernel
set -u
LIMIT=420 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts.txt > $OUT/ab-stdout.txt 2>&1
tail -n 52 $OUT/ab-stdout.txt
