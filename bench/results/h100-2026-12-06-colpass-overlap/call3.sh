#!/bin/bash
# 84th session, call 3: the head (0e59416) against COLPASS_OVERLAP, each build its own pick, at
# the 29 points whose PTX it changes of 500 drawn from the heavy-math column passes (seed 8410:
# bias_gelu_erf_back, bias_gelu_back, bias_silu_back, drop_back, colpass_i8, colpass_whole; 500
# to 12288 rows of 20000 to 200000 columns, N not a multiple of 4), smallest first; memcheck at
# a moved pick first.
set -u
xz -dc .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
COPY=3027; grep -q H200 $OUT/device.txt && COPY=4274
T0=$(date +%s)
for p in "bench/results/h200-2026-12-02-colpass-ctas/kernels/drop_back.rk bf16 880x25299"; do
	set -- $p
	f=$OUT/memcheck-$(basename $1 .rk)-$2-$3.txt
	timeout 60 compute-sanitizer --tool memcheck /tmp/rkc run $1 --dtype $2 --shape $3 --check > $f 2>&1
	echo "memcheck $p: $(grep '^RESULT' $f | grep -o 'status=[a-zA-Z]*') $(grep 'ERROR SUMMARY' $f | tail -1)"
done
OUT=$OUT/heavy COPY=$COPY LIMIT=$(( 350 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s84/heavy-points.txt > $OUT/heavy_table.txt 2>&1
cut -c1-100 $OUT/heavy_table.txt
gzip -f $OUT/heavy/ab.txt
echo "total: $(( $(date +%s) - T0 )) s"
