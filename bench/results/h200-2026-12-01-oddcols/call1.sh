#!/bin/bash
# Call 1 (oddcols): the column pass with every row's loads of a round trip issued before any
# row's code (the new build) against the old build's PTX; ncu of both at bias_gelu_back bf16
# 8x1000003; the sanitizers on the column-pass lines; torch.compile at six shapes.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
gunzip -c .carry/s55/rkc_old.gz >/tmp/rkc_old && chmod +x /tmp/rkc_old
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv >"$OUT/env.txt"
H=bench/heldout
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats --section Occupancy"
for b in rkc rkc_old; do
	timeout 100 ncu $S -k regex:bias_gelu_back --launch-skip 2 --launch-count 1 \
		/tmp/$b run $H/bias_gelu_back.rk --shape 8x1000003 --dtype bf16 --time >"$OUT/ncu-$b.txt" 2>&1
done
OUT="$OUT/san" timeout 150 bash bench/sanitize_new.sh $R "colpass" >"$OUT/sanitize.txt" 2>&1
LIMIT=280 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s55/points.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
timeout 150 python3 bench/torch_compare.py --rkc $R --heldout .carry/s55/heldout \
	--kernels bias_gelu_back,bias_grad --dtype bf16 --shapes-per-kernel 6 \
	--copy-gbps 4274 --workdir /tmp/tcw --csv "$OUT/tc_bf16.csv" >"$OUT/tc_bf16.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"
tar czf "$OUT/logs.tgz" -C "$OUT" san ab-run.log tc_bf16.csv && rm -rf "$OUT/san" "$OUT/ab" "$OUT/ab-run.log" "$OUT/tc_bf16.csv"
for b in rkc rkc_old; do
	echo "== ncu $b"
	grep -E "Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache|Registers Per|Achieved Occ|Warp Cycles Per Issued|Local Memory Spilling Req" "$OUT/ncu-$b.txt" | sed 's/  */ /g'
done
tail -3 "$OUT/sanitize.txt"
tail -16 "$OUT/tc_bf16.txt" | cut -c1-125
cut -c1-100 "$OUT/ab-table.txt" | head -50; tail -3 "$OUT/ab-table.txt" | cut -c1-200
