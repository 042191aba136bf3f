#!/bin/bash
# Row branches: the old build's PTX against the new build's (loads inside the body unmasked, a
# CTA of one row past M returning at once, so a row's code is one block), 69 points of every
# kernel and class; first memcheck at four new PTX whose last CTA has rows past M.
# Run from the repository root on the GPU host with .carry/new.xz (the runner) and .carry/ab
# (bench/ab_ptx.sh -carry-new made it and call1-points.txt).
set -u
D=bench/results/h200-2026-12-04-row-branches
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/new.xz > /tmp/rkc-new && chmod +x /tmp/rkc-new
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
for p in "rms_norm bf16 1001x1000" "bench/heldout/swiglu_bwd.rk bf16 1003x64" "layer_norm fp32 333x2048" "softmax bf16 7x4096"; do
	set -- $p
	f=testdata/kernels/$1.rk; case $1 in *.rk) f=$1 ;; esac
	b=.carry/ab/$(basename $1 .rk)-$2-$3.new
	r=$(timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/rkc-new run $f --dtype $2 --shape $3 --check --ptx $b.ptx --manifest $b.json 2>&1)
	echo "rc=$? memcheck $p: $(printf '%s\n' "$r" | grep 'ERROR SUMMARY' | head -1) $(printf '%s\n' "$r" | grep -o 'status=[a-z]*' | head -1)"
done > $OUT/san.txt
LIMIT=470 COPY=4274 OUT=$OUT bash bench/ab.sh /tmp/rkc-new $D/call1-points.txt > $OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt > $OUT/ab-table.txt 2>&1
gzip -k $OUT/ab.txt
cat $OUT/san.txt
cat $OUT/ab-table.txt | sed 's/{[^}]*}//g'
