#!/bin/bash
# call 2: the Welford change's A/B (old PTX against new at the 16 welford points whose PTX moved);
# round 2 of kernels no suite holds (a new seed of the generator, which now writes tanh, erf, pow,
# col, fp8 inputs and outputs), every dtype, rows padded too; round 1's failures again; memcheck
# and racecheck on generated kernels. Run from the repository root, the static rkc at .carry/rkc.
set -u
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt
LIMIT=150 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts2.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1; gzip -9 $OUT/ab/ab.txt
cs=$(grep -l colsum .carry/gen2/*.rk)
KERNELS="$cs $(grep -L colsum .carry/gen2/*.rk) .carry/gen/gen-30.rk .carry/gen/gen-45.rk .carry/gen/gen-63.rk tests/analysis/plan/read_back.rk"
export KERNELS
SHAPES="1x1 3x7 5x1000 37x4099 1000x896 4x151936 2x1048576 65536x64 300x8192 8x1000003 512x32768" \
OUT=$OUT POLICIES=rkc PAD=8 JOBS=14 MEMCHECK=0 timeout 300 bash bench/robust_gpu.sh .carry/rkc .carry/gen2 > $OUT/robust-summary.txt 2>&1
echo "robust rc=$?" >> $OUT/robust-summary.txt
san() { timeout 150 compute-sanitizer --tool $2 --error-exitcode 9 .carry/rkc run "$1" \
	--shape 3x7 --shape 5x1000 --shape 37x4099 --shape 2x50257 --dtype bf16 --check \
	> "$OUT/san/$(basename $1)-$2.log" 2>&1 || echo "EXIT $? $1 $2" >> "$OUT/san/$(basename $1)-$2.log"; }
export -f san; mkdir -p $OUT/san
for k in $(ls .carry/gen2/*.rk | head -12); do echo "$k memcheck"; echo "$k racecheck"; done | timeout 200 xargs -P 12 -L 1 bash -c 'san "$@"' _
cat $OUT/san/*.log > $OUT/sanitizers.log; rm -rf $OUT/san
echo "sanitizers: $(grep -c 'ERROR SUMMARY: 0 errors\|RACECHECK SUMMARY: 0 hazards' $OUT/sanitizers.log) clean of 24 runs; $(grep -c '^EXIT' $OUT/sanitizers.log) exited non-zero" >> $OUT/robust-summary.txt
gzip -9 $OUT/robust.log $OUT/sanitizers.log
cat $OUT/ab-table.txt | tail -25; cat $OUT/robust-summary.txt
