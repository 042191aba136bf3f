#!/bin/bash
# Call 1 (interleave): the column pass element by element, its lanes interleaved (lane pj's
# element e at column base + e W + pj) against the old build's (4 consecutive columns a lane),
# both builds' PTX (points1 lines 1-24); the column pass forced at odd widths where the policy
# does not take it (lines 25-32, the new build); sanitizers on the column pass lines; torch.compile
# at six odd widths, bias_gelu_back and bias_grad, bf16 and fp32.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv >"$OUT/env.txt"
OUT="$OUT/san" timeout 170 bash bench/sanitize_new.sh $R "colpass|bias_g" >"$OUT/sanitize.txt" 2>&1
LIMIT=230 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s56/points1.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
for d in bf16 f32; do
	timeout 80 python3 bench/torch_compare.py --rkc $R --heldout .carry/s56/heldout \
		--kernels bias_gelu_back,bias_grad --dtype $d --shapes-per-kernel 6 \
		--copy-gbps 4274 --workdir /tmp/tcw --csv "$OUT/tc_$d.csv" >"$OUT/tc_$d.txt" 2>&1
done
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"
tar czf "$OUT/logs.tgz" -C "$OUT" san ab-run.log tc_bf16.csv tc_f32.csv env.txt && rm -rf "$OUT/san" "$OUT/ab" "$OUT/ab-run.log" "$OUT/tc_bf16.csv" "$OUT/tc_f32.csv" "$OUT/env.txt"
tail -3 "$OUT/sanitize.txt"
for d in bf16 f32; do tail -16 "$OUT/tc_$d.txt" | cut -c1-125; done
grep -c RESULT "$OUT/ab-table.txt"; cut -c1-110 "$OUT/ab-table.txt" | head -45; tail -3 "$OUT/ab-table.txt" | cut -c1-200
