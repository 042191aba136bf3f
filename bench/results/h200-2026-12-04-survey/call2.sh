#!/bin/bash
# call 2: a persistent row's loads issued at the start of the stretch of their first use
# (codegen/lower_rows.c, stretch_loads) against HEAD (32b6269), old PTX against new at 146 of the
# 393 sm_90 golden and held-out points whose PTX changed (two a kernel and dtype, the narrowest
# and widest rows, every swiglu_bwd and i8_layernorm one); memcheck first at five new PTX whose
# last CTA has rows past M. Runner: .carry/loads.xz; PTX from bench/ab_ptx.sh -carry-new.
set -u
D=bench/results/h200-2026-12-04-survey
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/loads.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
for b in .carry/san/*.ptx; do
	n=$(basename $b .ptx); k=${n%%-*}; rest=${n#*-}; dt=${rest%%-*}; sh=${rest#*-}
	f=testdata/kernels/$k.rk; [ -f $f ] || f=bench/heldout/$k.rk
	r=$(timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/rkc run $f --dtype $dt --shape $sh --check --ptx $b --manifest ${b%.ptx}.json 2>&1)
	echo "rc=$? memcheck $k $dt $sh: $(printf '%s\n' "$r" | grep 'ERROR SUMMARY' | head -1) $(printf '%s\n' "$r" | grep -o 'status=[a-z]*' | head -1)"
done > $OUT/san.txt
LIMIT=455 COPY=4274 OUT=$OUT bash bench/ab.sh /tmp/rkc $D/call2-points.txt > $OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt > $OUT/ab-table.txt 2>&1
gzip $OUT/ab.txt
cat $OUT/san.txt
sed 's/{[^}]*}//g' $OUT/ab-table.txt | tail -40
