#!/bin/bash
# Call 5 of 2026-12-01 (colpass-whole), the final build: old picks (PTX of e95aee9's build,
# .carry/s54/old) against the new picks at the 41 points whose pick moved (bench/ab.sh: old, new
# checked against float64, new, old); the new mode under the sanitizers; torch.compile at the
# held-out shapes and four more.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
$R --version >"$OUT/env.txt"
OUT="$OUT/san" bash bench/sanitize_new.sh $R "colpass_whole|bias_gelu_back|bias_grad" \
	>"$OUT/sanitize.txt" 2>&1
for dt in bf16 f32; do
	python3 bench/torch_compare.py --rkc $R --heldout .carry/s54/heldout \
		--kernels bias_gelu_back,bias_grad --dtype $dt --shapes-per-kernel 11 \
		--copy-gbps 4274 --workdir /tmp/tcw --csv "$OUT/tc_$dt.csv" >"$OUT/tc_$dt.txt" 2>&1
done
LIMIT=230 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s54/points.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"
tar czf "$OUT/logs.tgz" -C "$OUT" san tc_f32.csv tc_bf16.txt && rm -rf "$OUT/san" "$OUT/ab"
tail -2 "$OUT/sanitize.txt"
for dt in bf16 f32; do tail -26 "$OUT/tc_$dt.txt" | cut -c1-125; done
cut -c1-85 "$OUT/ab-table.txt" | head -44; tail -3 "$OUT/ab-table.txt" | cut -c1-200
