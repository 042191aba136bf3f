#!/bin/bash
# Written in the 81st session, remade in the 82nd, run in the 83rd (bench/results/
# h100-2026-12-06-colpass-lanes.md, call 1). Before the call, here (where LLVM is), with the
# head's static release build in .carry/new.xz, bce0adb's in .carry/old.xz and the patched build
# (the head with pending-fewest-turns.diff applied) as PATCHED:
#   awk '{print $1,$2,$3}' next-turns-points.txt > /tmp/tp.txt
#   bash bench/ab_ptx.sh -carry-new -any-config HEAD_RKC PATCHED /tmp/tp.txt .carry/s82/ab > .carry/s82/turns-points.txt
#   while read k d s cfg a b; do n=$(basename $k .rk)-$d-$s
#     PATCHED compile $k --dtype $d --shape $s --config $cfg -o .carry/s82/c2/$n.cp.ptx
#     PATCHED compile $k --dtype $d --shape $s -o .carry/s82/c2/$n.pick.ptx
#     echo "$k $d $s ptx:.carry/s82/c2/$n.cp.ptx ptx:.carry/s82/c2/$n.pick.ptx"
#   done < next-c2-points.txt > .carry/s82/c2-points.txt
#   cp next-rule-points.txt .carry/s82/rule-points.txt
# Then: memcheck at one moved pick; the fewest turns at misaligned rows, old PTX against new at the
# 32 points whose PTX it changes; the one-turn column pass (the patch's codegen, call 1's column
# pass config forced) against the streamed rows the rule picks at call 1's 18 misaligned points of
# 1000-4096 rows, both PTX from the patched build (does split_colpass hold once the column pass
# takes one turn?); last, the rule at 30 fresh moved points (each build its own pick).
set -u
xz -dc .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
COPY=3027; grep -q H200 $OUT/device.txt && COPY=4274
T0=$(date +%s)
timeout 60 compute-sanitizer --tool memcheck /tmp/rkc run tests/heuristics/kernels/bias_silu_back.rk --dtype fp32 --shape 1000x20011 --check > $OUT/memcheck.txt 2>&1
echo "memcheck: $(grep '^RESULT' $OUT/memcheck.txt | grep -o 'status=[a-zA-Z]*') $(grep 'ERROR SUMMARY' $OUT/memcheck.txt | tail -1)"
OUT=$OUT/turns COPY=$COPY LIMIT=$(( 240 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s82/turns-points.txt > $OUT/turns_table.txt 2>&1
cut -c1-100 $OUT/turns_table.txt
OUT=$OUT/c2 COPY=$COPY LIMIT=$(( 360 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s82/c2-points.txt > $OUT/c2_table.txt 2>&1
cut -c1-100 $OUT/c2_table.txt
xz -dc .carry/old.xz > /tmp/rkc-old && chmod +x /tmp/rkc-old
OUT=$OUT/rule COPY=$COPY OLD_RKC=/tmp/rkc-old LIMIT=$(( 540 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s82/rule-points.txt > $OUT/rule_table.txt 2>&1
cut -c1-100 $OUT/rule_table.txt
echo "total: $(( $(date +%s) - T0 )) s"
