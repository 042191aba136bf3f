#!/bin/bash
# Row branches, call 8: the stamps (--regions) of a build with the stamp call made convergent (not kept) at the six of the 22 long launches of
# h200-2026-12-04-regions-copies.md whose stamped PTX changed (the early return; the stamp call
# made convergent, so no stamp is copied into the blocks before it): plain, default sampling
# (checked against float64) and every block stamped, each --time; then memcheck on a stamped
# kernel of one persistent row a CTA and on the same kernel at an odd shape.
# Run from the repository root on the GPU host with .carry/new.xz.
set -u
R=/tmp/rkc
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/new.xz > $R && chmod +x $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
us() { grep '^RESULT' | sed 's/.* us=\([0-9.]*\).*/\1/'; }
for p in "fp8_quant 16384x14336" "gelu_tanh_gated 8192x24576" "layer_norm_backward 4096x32768" "long_sum 128x524288" "rms_norm_backward 4096x32768" "sum 64x4194304"; do
	set -- $p
	k=$1 s=$2
	a=$(timeout 60 $R run testdata/kernels/$k.rk --shape $s --dtype bf16 --time --copy-gbps 4274 2>&1 | tee $OUT/$k.plain.log | us)
	b=$(timeout 60 $R run testdata/kernels/$k.rk --shape $s --dtype bf16 --time --check --copy-gbps 4274 --regions 2>&1 | tee $OUT/$k.regions.log | us)
	c=$(timeout 60 $R run testdata/kernels/$k.rk --shape $s --dtype bf16 --time --copy-gbps 4274 --regions --regions-every 1 2>&1 | tee $OUT/$k.every1.log | us)
	a2=$(timeout 60 $R run testdata/kernels/$k.rk --shape $s --dtype bf16 --time --copy-gbps 4274 2>&1 | us)
	st=$(grep -o 'status=[a-z]*' $OUT/$k.regions.log | head -1)
	echo "$k $s plain=$a default=$b every1=$c plain2=$a2 $st"
done > $OUT/overhead.txt 2>&1
for p in "bench/heldout/swiglu_bwd.rk 4096x4096" "bench/heldout/swiglu_bwd.rk 1001x4096" "testdata/kernels/rms_norm.rk 999x1536"; do
	set -- $p
	r=$(timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $R run $1 --dtype bf16 --shape $2 --check --regions --regions-every 1 2>&1)
	echo "rc=$? memcheck --regions $p: $(printf '%s\n' "$r" | grep 'ERROR SUMMARY' | head -1) $(printf '%s\n' "$r" | grep -o 'status=[a-z]*' | head -1)"
done > $OUT/san.txt
tar czf $OUT/logs.tgz -C $OUT $(cd $OUT && ls *.log) && rm -f $OUT/*.log
cat $OUT/overhead.txt $OUT/san.txt
