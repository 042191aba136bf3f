#!/bin/bash
# The register model at vec 1, narrow loads a register each (the predicate word kept): each build's
# batch-invariant pick at the 12 sm_90 points whose config moved and the same orders at 256 rows, old, new (checked against
# float64, outputs poisoned), new, old; then memcheck at three new picks.
# Run from the repository root on the GPU host with .carry/rkc0.xz (old) and .carry/rkc2.xz (new).
set -u
D=bench/results/h200-2026-12-04-vec1-regs
for b in rkc0 rkc2; do
	python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/$b.xz > /tmp/$b && chmod +x /tmp/$b
done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
OLD_RKC=/tmp/rkc0 LIMIT=480 COPY=4274 OUT=$OUT bash bench/ab.sh /tmp/rkc2 $D/call2-points.txt > $OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt > $OUT/ab-table.txt 2>&1
for p in "gated_rmsnorm bf16 16x1000003" "layer_norm bf16 4x1000003" "welford bf16 100003x17"; do
	set -- $p
	r=$(timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/rkc2 run testdata/kernels/$1.rk --dtype $2 --shape $3 --check --batch-invariant 2>&1)
	echo "rc=$? memcheck $p: $(printf '%s\n' "$r" | grep 'ERROR SUMMARY' | head -1) $(printf '%s\n' "$r" | grep -o 'status=[a-z]*' | head -1)"
done > $OUT/san.txt
gzip -k $OUT/ab.txt
cat $OUT/san.txt
tail -25 $OUT/ab-table.txt
