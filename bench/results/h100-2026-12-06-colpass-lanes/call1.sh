#!/bin/bash
# 82nd session, the one call the budget allows: memcheck at one moved pick; the fewest turns at
# misaligned rows (pending-fewest-turns.diff) on top of the rule, old PTX against new at the 32
# points whose PTX it changes (.carry/s82/turns-points.txt); then, while time is left, the
# one-turn column pass (the patch's codegen) against the streamed rows the rule picks at call 1's
# 18 misaligned points of 1000-4096 rows (.carry/s82/c2-points.txt), both PTX from the patched
# build; last, if time is left, the rule at 30 fresh moved points (each build its own pick).
set -u
xz -dc .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
COPY=3027; grep -q H200 $OUT/device.txt && COPY=4274
T0=$(date +%s)
timeout 30 compute-sanitizer --tool memcheck /tmp/rkc run tests/heuristics/kernels/bias_silu_back.rk --dtype fp32 --shape 1000x20011 --check > $OUT/memcheck.txt 2>&1
echo "memcheck: $(grep '^RESULT' $OUT/memcheck.txt | grep -o 'status=[a-zA-Z]*') $(grep 'ERROR SUMMARY' $OUT/memcheck.txt | tail -1)"
OUT=$OUT/turns COPY=$COPY LIMIT=$(( 160 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s82/turns-points.txt > $OUT/turns_table.txt 2>&1
cut -c1-100 $OUT/turns_table.txt
OUT=$OUT/c2 COPY=$COPY LIMIT=$(( 215 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s82/c2-points.txt > $OUT/c2_table.txt 2>&1
cut -c1-100 $OUT/c2_table.txt
L3=$(( 225 - ($(date +%s) - T0) ))
if [ $L3 -ge 30 ]; then
	xz -dc .carry/old.xz > /tmp/rkc-old && chmod +x /tmp/rkc-old
	OUT=$OUT/rule COPY=$COPY OLD_RKC=/tmp/rkc-old LIMIT=$L3 bash bench/ab.sh /tmp/rkc .carry/s82/rule-points.txt > $OUT/rule_table.txt 2>&1
	cut -c1-100 $OUT/rule_table.txt
fi
echo "total: $(( $(date +%s) - T0 )) s"
