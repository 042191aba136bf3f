#!/bin/bash
# Session 29, call 6: bench/tune_run.sh (issue 10 bar 5) over SUITES, TOP 12, 80 s a point.
set -u
O=$OUT/s6
mkdir -p $O
OUT=$O SUITES="$1" LIMIT=80 timeout 540 bench/tune_run.sh .carry/rkc >$O/tune_run.txt 2>&1
echo "rc=$?"
tail -25 $O/tune_run.txt
cd $OUT && tar czf s6.tgz s6 && rm -rf s6
