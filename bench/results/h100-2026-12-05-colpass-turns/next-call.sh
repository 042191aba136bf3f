#!/bin/bash
# For the next session (written in the 81st, not run: the device was paused). Part 1: the rule
# split_colpass (729749a) at 30 fresh points whose pick it moves (bench/results/
# h100-2026-12-05-colpass-turns/moved-picks.txt, none of call 1's), each build its own pick:
# old = bce0adb (.carry/old.xz), new = a9282b8's build (.carry/new.xz). Part 2: the fewest turns
# at misaligned rows (pending-fewest-turns.diff) on top of the rule, old PTX against new at the 32
# points whose PTX it changes (.carry/s82/turns-points.txt). Memcheck at one moved pick first.
set -u
xz -dc .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
xz -dc .carry/old.xz > /tmp/rkc-old && chmod +x /tmp/rkc-old
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
COPY=3027; grep -q H200 $OUT/device.txt && COPY=4274
T0=$(date +%s)
timeout 120 compute-sanitizer --tool memcheck /tmp/rkc run tests/heuristics/kernels/bias_silu_back.rk --dtype fp32 --shape 1000x20011 --check > $OUT/memcheck.txt 2>&1
echo "memcheck: $(grep '^RESULT' $OUT/memcheck.txt | grep -o 'status=[a-zA-Z]*') $(grep 'ERROR SUMMARY' $OUT/memcheck.txt | tail -1)"
OUT=$OUT/rule COPY=$COPY OLD_RKC=/tmp/rkc-old LIMIT=$(( 230 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s82/rule-points.txt > $OUT/rule_table.txt 2>&1
cut -c1-100 $OUT/rule_table.txt
OUT=$OUT/turns COPY=$COPY LIMIT=$(( 400 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s82/turns-points.txt > $OUT/turns_table.txt 2>&1
cut -c1-100 $OUT/turns_table.txt
echo "total: $(( $(date +%s) - T0 )) s"
