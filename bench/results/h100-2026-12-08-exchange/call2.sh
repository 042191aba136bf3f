#!/bin/bash
# Call 2 (prepared in the 100th session, not yet run: no device was lent): the cooperative
# exchange as tagged slots (tagged-exchange.diff, against 3e32f84: each partial written as one
# u64 under the launch's tag, read until every tag is the launch's; no fence, counter or second
# read) against main. Here, first: apply the diff on a worktree of 3e32f84, build both static
# release builds, then
#   bash bench/ab_ptx.sh -carry-new MAIN TAGGED bench/results/h100-2026-12-08-exchange/points.txt \
#     .carry/ab100b > bench/results/h100-2026-12-08-exchange/points-tag.txt
# and carry the tagged build as .carry/rkc100b.xz with the PTX in .carry/ab100b.
# Part 1: the A/B of both builds' PTX (points-tag.txt). Part 2: the regions of four bands under
# the tagged build. Part 3: its cooperative lines of bench/sanitize_new.sh under
# compute-sanitizer. Run from the repository root on the GPU host. env A_LIMIT (part 1's
# bench/ab.sh LIMIT), SAN_S (part 3's seconds).
set -u
D=bench/results/h100-2026-12-08-exchange
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc100b.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv >$OUT/env.txt 2>&1
head -2 $OUT/env.txt
T0=$(date +%s)
mkdir -p $OUT/tag
OUT=$OUT/tag LIMIT=${A_LIMIT:-240} COPY=3027 bash bench/ab.sh /tmp/rkc $D/points-tag.txt >/dev/null 2>&1
python3 bench/ab_report.py $OUT/tag/ab.txt >$OUT/tag/report.txt 2>&1
tail -6 $OUT/tag/report.txt
echo "part 1: $(($(date +%s) - T0)) s"
R=$OUT/regions.log
for p in "layer_norm bf16 37x4194304" "welford bf16 64x1000003" "rms_norm bf16 64x1000003" \
	"dynamic_quant bf16 37x1000003"; do
	set -- $p
	echo "== $p" >>$R
	timeout 60 /tmp/rkc run testdata/kernels/$1.rk --dtype $2 --shape $3 --regions --time --check --copy-gbps 3027 >>$R 2>&1
	echo "regions $p: $(grep -o 'status=[a-z]*' $R | tail -1) $(grep -A12 "^== $p" $R | grep -m1 'cluster' | tr -s ' ') ($(($(date +%s) - T0)) s)"
done
mkdir -p $OUT/san
OUT=$OUT/san timeout ${SAN_S:-150} bash bench/sanitize_new.sh /tmp/rkc "coop=1" >$OUT/san.log 2>&1
echo "part 3: $(($(date +%s) - T0)) s; $(grep -c . $OUT/san.log) lines"
tail -5 $OUT/san.log
L=$(ls $OUT/san/*.log | head -1)
echo "san (whatever the timeout left): checks ok $(grep -c 'RESULT.*status=ok' $L) of $(grep -c RESULT $L);" \
	"clean $(grep -c 'ERROR SUMMARY: 0 errors\|RACECHECK SUMMARY: 0 hazards' $L);" \
	"not clean $(grep -c 'ERROR SUMMARY: [1-9]\|RACECHECK SUMMARY: [1-9]' $L); exits $(grep -c '^EXIT' $L)"
