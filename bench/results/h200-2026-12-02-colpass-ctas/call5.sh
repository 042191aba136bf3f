#!/bin/bash
# Call 5: settle_colpass_ctas's second class (a whole column pass that stores only its colsums,
# at 4 CTAs an SM where the model says faster and ptxas's cap holds it): the old pick's PTX
# against the new pick at the 14 points of points5.txt; memcheck/racecheck on a new pick.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
LIMIT=240 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s57/ab5-points.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"; rm -rf "$OUT/ab"
for a in "bench/heldout/bias_grad.rk bf16 127x131071" "bench/heldout/bias_grad.rk f32 9x1000003"; do
	set -- $a
	for tool in memcheck racecheck; do
		timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $R run $1 --dtype $2 --shape $3 --check >/tmp/san.txt 2>&1
		echo "$tool $a: exit $? $(grep -o 'status=[a-z]*' /tmp/san.txt | head -1) $(grep -o '"min_ctas":[0-9]*' /tmp/san.txt | head -1)"
	done
done >"$OUT/sanitize.txt" 2>&1
cut -c1-100 "$OUT/ab-table.txt" | head -20; tail -3 "$OUT/ab-table.txt" | cut -c1-200
cat "$OUT/sanitize.txt"
