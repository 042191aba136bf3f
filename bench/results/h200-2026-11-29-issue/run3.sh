#!/bin/bash
# call 3: the persistent guard re-measured, register-crossing points, training tables
set -u
LIMIT=200 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts.txt > $OUT/ab-stdout.txt 2>&1
tail -n 16 $OUT/ab-stdout.txt
for d in bf16 f32; do
  timeout 150 python3 bench/torch_compare.py --rkc .carry/rkc --suites training --shapes-per-kernel 4 --dtype $d --copy-gbps 4274 --csv $OUT/tc-$d.csv --workdir $OUT/tcw-$d > $OUT/tc-$d.txt 2>&1
  echo "tc $d: $?"; tail -n 24 $OUT/tc-$d.txt
done
