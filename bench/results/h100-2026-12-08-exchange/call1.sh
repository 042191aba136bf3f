#!/bin/bash
# Call 1 (100th session): the exchange's wait (ws_arrive_wait) where the last CTA in goes on
# from its atomic's count without a read, and the nap between reads at 20 ns in place of 100.
# Part 1: main (OLD) against both changes (points-skip20.txt, from bench/ab_ptx.sh -carry-new
# main skip20 points.txt .carry/ab100), the few_rows bands first. Part 2: the skip alone against
# the skip with the 20 ns nap (points-nap.txt, PTX of the skip build in .carry/ab100a). Part 3:
# the regions of four bands under the new build. Run from the repository root on the GPU host,
# carrying the new build (skip and 20 ns) as .carry/rkc100.xz and the PTX in .carry/ab100 and
# .carry/ab100a. env A_LIMIT, B_LIMIT: bench/ab.sh's LIMIT for parts 1 and 2.
set -u
D=bench/results/h100-2026-12-08-exchange
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc100.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv >$OUT/env.txt 2>&1
head -2 $OUT/env.txt
T0=$(date +%s)
mkdir -p $OUT/skip20 $OUT/nap
OUT=$OUT/skip20 LIMIT=${A_LIMIT:-200} COPY=3027 bash bench/ab.sh /tmp/rkc $D/points-skip20.txt >/dev/null 2>&1
python3 bench/ab_report.py $OUT/skip20/ab.txt >$OUT/skip20/report.txt 2>&1
tail -22 $OUT/skip20/report.txt
echo "part 1: $(($(date +%s) - T0)) s"
OUT=$OUT/nap LIMIT=${B_LIMIT:-60} COPY=3027 bash bench/ab.sh /tmp/rkc $D/points-nap.txt >/dev/null 2>&1
python3 bench/ab_report.py $OUT/nap/ab.txt >$OUT/nap/report.txt 2>&1
tail -12 $OUT/nap/report.txt
echo "part 2: $(($(date +%s) - T0)) s"
R=$OUT/regions.log
for p in "layer_norm bf16 37x4194304" "welford bf16 64x1000003" "rms_norm bf16 64x1000003" \
	"dynamic_quant bf16 37x1000003"; do
	set -- $p
	echo "== $p" >>$R
	timeout 60 /tmp/rkc run testdata/kernels/$1.rk --dtype $2 --shape $3 --regions --time --check --copy-gbps 3027 >>$R 2>&1
	echo "regions $p: $(grep -o 'status=[a-z]*' $R | tail -1) ($(($(date +%s) - T0)) s)"
done
