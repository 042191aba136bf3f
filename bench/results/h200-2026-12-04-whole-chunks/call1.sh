#!/bin/bash
# Whole chunks: the old build's PTX against the new build's (the body's whole chunks without
# column masks, the last chunk alone), 30 looped picks; then memcheck at three new PTX whose last
# row block has rows past M or whose rows are cut into segments.
# Run from the repository root on the GPU host with .carry/rkc0.xz (the runner) and .carry/ab
# (bench/ab_ptx.sh -carry-new made it and call1-points.txt).
set -u
D=bench/results/h200-2026-12-04-whole-chunks
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/rkc0.xz > /tmp/rkc0 && chmod +x /tmp/rkc0
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
for p in "san1 cross_entropy bf16 2047x50257" "san2 layer_norm fp32 333x65537" "san3 softmax bf16 63x1000003"; do
	set -- $p
	r=$(timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/rkc0 run testdata/kernels/$2.rk --dtype $3 --shape $4 --check --ptx .carry/ab/$1.ptx --manifest .carry/ab/$1.json 2>&1)
	echo "rc=$? memcheck $p: $(printf '%s\n' "$r" | grep 'ERROR SUMMARY' | head -1) $(printf '%s\n' "$r" | grep -o 'status=[a-z]*' | head -1)"
done > $OUT/san.txt
LIMIT=430 COPY=4274 OUT=$OUT bash bench/ab.sh /tmp/rkc0 $D/call1-points.txt > $OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt > $OUT/ab-table.txt 2>&1
gzip -k $OUT/ab.txt
cat $OUT/san.txt
cat $OUT/ab-table.txt | sed 's/{[^}]*}//g'
