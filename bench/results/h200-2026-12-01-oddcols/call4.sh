#!/bin/bash
# Call 4 (oddcols): the final build (the split trips where the column pass stores element by
# element, rows a trip by plan_colpass_words there, spread evenly over the trips everywhere):
# the sanitizers on the column-pass lines, torch.compile at six shapes (bf16 and fp32).
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv >"$OUT/env.txt"
OUT="$OUT/san" timeout 170 bash bench/sanitize_new.sh $R "colpass" >"$OUT/sanitize.txt" 2>&1
for dt in bf16 f32; do
	timeout 120 python3 bench/torch_compare.py --rkc $R --heldout .carry/s55/heldout \
		--kernels bias_gelu_back,bias_grad --dtype $dt --shapes-per-kernel 6 \
		--copy-gbps 4274 --workdir /tmp/tcw --csv "$OUT/tc_$dt.csv" >"$OUT/tc_$dt.txt" 2>&1
done
tar czf "$OUT/logs.tgz" -C "$OUT" san tc_bf16.csv tc_f32.csv && rm -rf "$OUT/san" "$OUT"/tc_*.csv
tail -3 "$OUT/sanitize.txt"
for dt in bf16 f32; do tail -14 "$OUT/tc_$dt.txt" | cut -c1-125; done
