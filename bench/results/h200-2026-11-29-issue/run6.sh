#!/bin/bash
# call 6: bf16 unpack only for vectors read from shared memory, against 2f82d0d
set -u
LIMIT=200 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts.txt > $OUT/ab-stdout.txt 2>&1
tail -n 14 $OUT/ab-stdout.txt
