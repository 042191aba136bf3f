#!/bin/bash
# call 2 (81st session): the column pass issues every row's loads of a round trip before any row's
# arithmetic and stores (colpass_trip). Old PTX (bce0adb) against new at 58 points of the 19
# kernels with sums over rows whose PTX changes (.carry/s81/points2.txt, from bench/ab_ptx.sh
# -carry-new); memcheck at two new PTX with edge trips.
set -u
xz -dc .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
COPY=3027; grep -q H200 $OUT/device.txt && COPY=4274
T0=$(date +%s)
S=$OUT/memcheck.txt
for p in "tests/heuristics/kernels/bias_silu_back.rk fp32 777x13001" "bench/heldout/wb_grad.rk bf16 64x50257"; do
  set -- $p
  f=.carry/s81/ab2/$(basename $1 .rk)-$2-$3.new.ptx
  echo "### $p" >> $S
  timeout 90 compute-sanitizer --tool memcheck /tmp/rkc run $1 --dtype $2 --shape $3 --ptx $f --manifest ${f%.ptx}.json --check >> $S 2>&1
  echo "memcheck $p: $(grep '^RESULT' $S | tail -1 | grep -o 'status=[a-zA-Z]*') $(grep 'ERROR SUMMARY' $S | tail -1)"
done
echo "memcheck: $(( $(date +%s) - T0 )) s"
OUT=$OUT/ab COPY=$COPY LIMIT=$(( 390 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s81/points2.txt > $OUT/ab_table.txt 2>&1
cut -c1-100 $OUT/ab_table.txt
echo "total: $(( $(date +%s) - T0 )) s"
