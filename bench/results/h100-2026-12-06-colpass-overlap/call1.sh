#!/bin/bash
# 84th session, call 1: the lanes' model with a quarter of the shorter term (COLPASS_OVERLAP).
# memcheck at a moved pick; the head (0e59416) against it, each build its own pick, at 18 fresh
# points whose PTX it changes (2000 drawn, seeds 8408 and 8409), at the two points of the last
# call it was read off; then the last session's untimed points (the head's change against its
# parent): 9 of its fresh points, 16 where it picks a config no call timed.
set -u
xz -dc .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
COPY=3027; grep -q H200 $OUT/device.txt && COPY=4274
T0=$(date +%s)
for p in "bench/results/h200-2026-12-02-colpass-ctas/kernels/drop_back.rk fp32 653x38690"; do
	set -- $p
	f=$OUT/memcheck-$(basename $1 .rk)-$2-$3.txt
	timeout 40 compute-sanitizer --tool memcheck /tmp/rkc run $1 --dtype $2 --shape $3 --check > $f 2>&1
	echo "memcheck $p: $(grep '^RESULT' $f | grep -o 'status=[a-zA-Z]*') $(grep 'ERROR SUMMARY' $f | tail -1)"
done
run() { # name seconds-from-start-by-which-to-stop points
	OUT=$OUT/$1 COPY=$COPY LIMIT=$(( $2 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc $3 > $OUT/$1_table.txt 2>&1
	echo "== $1"; cut -c1-100 $OUT/$1_table.txt
}
run fresh 190 .carry/s84/fresh-points.txt
run fit 240 .carry/s84/fit-points.txt
run val2left 320 .carry/s84/val2-left.txt
run other 380 .carry/s83/other-points.txt
echo "total: $(( $(date +%s) - T0 )) s"
