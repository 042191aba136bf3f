#!/bin/bash
# Call 8: settle_colpass_ctas's slices (a whole column pass stored element by element with one
# colsum, over 20 round trips a thread at 4 CTAs an SM on one wave: slices of 16 vectors of 4
# columns at 4 CTAs an SM): the old pick's PTX against the new pick at 12 fresh points, then
# memcheck and racecheck on two of them.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
LIMIT=300 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s57/ab8-points.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"; rm -rf "$OUT/ab"
for a in "bench/heldout/bias_gelu_back.rk bf16 301x40009" "tests/heuristics/kernels/bias_silu_back.rk f32 257x65537"; do
	set -- $a
	for tool in memcheck racecheck; do
		timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $R run $1 --dtype $2 --shape $3 --check >/tmp/san.txt 2>&1
		echo "$tool $a: exit $? $(grep -o 'status=[a-z]*' /tmp/san.txt | head -1) $(grep -o '"grid":[0-9]*' /tmp/san.txt | head -1)"
	done
done >"$OUT/sanitize.txt" 2>&1
cut -c1-100 "$OUT/ab-table.txt" | head -16; tail -3 "$OUT/ab-table.txt" | cut -c1-200
cat "$OUT/sanitize.txt"
