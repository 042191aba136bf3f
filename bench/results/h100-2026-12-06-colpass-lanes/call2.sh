#!/bin/bash
# 83rd session: the column pass's lanes by the longer of bytes and accesses at misaligned rows.
# memcheck at two moved picks; the head (ec14f9c) against the change, each build its own pick, at
# 41 fresh points whose PTX it changes (val-points.txt), then at the fit's 24 (fit-points.txt).
set -u
xz -dc .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
COPY=3027; grep -q H200 $OUT/device.txt && COPY=4274
T0=$(date +%s)
for p in "tests/heuristics/kernels/bias_silu_back.rk fp32 256x20011" "bench/heldout/wb_grad.rk bf16 2500x40009"; do
	set -- $p
	timeout 40 compute-sanitizer --tool memcheck /tmp/rkc run $1 --dtype $2 --shape $3 --check > $OUT/memcheck-$(basename $1 .rk)-$2.txt 2>&1
	echo "memcheck $p: $(grep '^RESULT' $OUT/memcheck-$(basename $1 .rk)-$2.txt | grep -o 'status=[a-zA-Z]*') $(grep 'ERROR SUMMARY' $OUT/memcheck-$(basename $1 .rk)-$2.txt | tail -1)"
done
OUT=$OUT/val COPY=$COPY LIMIT=$(( 250 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s83/val-points.txt > $OUT/val_table.txt 2>&1
cut -c1-100 $OUT/val_table.txt
OUT=$OUT/ex COPY=$COPY LIMIT=$(( 280 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s83/ex-points.txt > $OUT/ex_table.txt 2>&1
cut -c1-100 $OUT/ex_table.txt
OUT=$OUT/fit COPY=$COPY LIMIT=$(( 400 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc .carry/s83/fit-points.txt > $OUT/fit_table.txt 2>&1
cut -c1-100 $OUT/fit_table.txt
echo "total: $(( $(date +%s) - T0 )) s"
