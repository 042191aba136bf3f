#!/bin/bash
# Call 3 (oddcols): three builds of the column pass that stores [M,N] outputs, each trip that is
# whole without a branch and a position past the slice skipping its trip (v1: rows a trip sized
# by the old count, the bytes an element of the inputs + 2; v2: by plan_colpass_words, a row's
# loads, [M] values and its stores' addresses; v3: v2 and the loads' addresses too), each against
# the old build's PTX (bench/ab.sh, ptx: both); rows a trip spread evenly over the trips in all
# three (the v1 lines run with --seed 3, v3 with --seed 4, so that the report tells them apart); the sanitizers on the column-pass lines (v2); torch.compile at six shapes (v2).
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv >"$OUT/env.txt"
OUT="$OUT/san" timeout 150 bash bench/sanitize_new.sh $R "colpass" >"$OUT/sanitize.txt" 2>&1
LIMIT=300 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s55/points3.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
timeout 120 python3 bench/torch_compare.py --rkc $R --heldout .carry/s55/heldout \
	--kernels bias_gelu_back,bias_grad --dtype bf16 --shapes-per-kernel 6 \
	--copy-gbps 4274 --workdir /tmp/tcw --csv "$OUT/tc_bf16.csv" >"$OUT/tc_bf16.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"
tar czf "$OUT/logs.tgz" -C "$OUT" san ab-run.log tc_bf16.csv && rm -rf "$OUT/san" "$OUT/ab" "$OUT/ab-run.log" "$OUT/tc_bf16.csv"
tail -3 "$OUT/sanitize.txt"
tail -16 "$OUT/tc_bf16.txt" | cut -c1-125
grep -c RESULT "$OUT/ab-table.txt"; cut -c1-100 "$OUT/ab-table.txt" | head -45; tail -3 "$OUT/ab-table.txt" | cut -c1-200
