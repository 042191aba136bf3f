#!/bin/bash
# Whole chunks: the old build's PTX against the new build's (the body's whole chunks without
# column masks, the last chunk alone), the looped picks of points2.txt and points3.txt whose PTX changed (scalar accesses); then memcheck and racecheck at new PTX of
# the norm backward kernels (sums over rows) at odd widths.
# Run from the repository root on the GPU host with .carry/rkc0.xz (the runner) and .carry/ab
# (bench/ab_ptx.sh -carry-new made it and call2-points.txt).
set -u
D=bench/results/h200-2026-12-04-whole-chunks
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/rkc0.xz > /tmp/rkc0 && chmod +x /tmp/rkc0
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
for p in "memcheck rms_norm_backward bf16 64x100003" "racecheck rms_norm_backward bf16 64x100003" "memcheck layer_norm_backward fp32 37x262147"; do
	set -- $p
	f=.carry/ab/$2-$3-$4.new
	r=$(timeout 150 compute-sanitizer --tool $1 --error-exitcode 9 /tmp/rkc0 run testdata/kernels/$2.rk --dtype $3 --shape $4 --check --ptx $f.ptx --manifest $f.json 2>&1)
	echo "rc=$? $p: $(printf '%s\n' "$r" | grep 'ERROR SUMMARY' | head -1) $(printf '%s\n' "$r" | grep -o 'status=[a-z]*' | head -1)"
done > $OUT/san.txt
LIMIT=400 COPY=4274 OUT=$OUT bash bench/ab.sh /tmp/rkc0 $D/call2-points.txt > $OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt > $OUT/ab-table.txt 2>&1
gzip -k $OUT/ab.txt
cat $OUT/san.txt
cat $OUT/ab-table.txt | sed 's/{[^}]*}//g'
