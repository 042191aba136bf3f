#!/bin/bash
# 83rd session, call 2: the lanes by modelled time (bytes, accesses, turns) at misaligned rows, v2.
# memcheck at two moved picks; the head (ec14f9c) against it, each build its own pick, at 31
# fresh points whose PTX it changes (val2-points.txt: 300 drawn, seed 8307), then at 16 points of
# call 1 where v2 picks a config not timed there (other-points.txt).
set -u
xz -dc .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
COPY=3027; grep -q H200 $OUT/device.txt && COPY=4274
T0=$(date +%s)
for p in "bench/heldout/wb_grad.rk fp32 2500x40009"; do
	set -- $p
	f=$OUT/memcheck-$(basename $1 .rk)-$2-$3.txt
	timeout 40 compute-sanitizer --tool memcheck /tmp/rkc run $1 --dtype $2 --shape $3 --check > $f 2>&1
	echo "memcheck $p: $(grep '^RESULT' $f | grep -o 'status=[a-zA-Z]*') $(grep 'ERROR SUMMARY' $f | tail -1)"
done
OUT=$OUT/val2 COPY=$COPY LIMIT=$(( 175 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s83/val2-points.txt > $OUT/val2_table.txt 2>&1
cut -c1-100 $OUT/val2_table.txt
OUT=$OUT/other COPY=$COPY LIMIT=$(( 215 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s83/other-points.txt > $OUT/other_table.txt 2>&1
cut -c1-100 $OUT/other_table.txt
echo "total: $(( $(date +%s) - T0 )) s"
