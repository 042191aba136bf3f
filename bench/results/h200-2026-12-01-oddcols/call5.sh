#!/bin/bash
# Call 5 (oddcols): a whole trip over misaligned rows reads each [M,N] input's 4 columns from the
# two aligned vectors that hold them (load_straddle), not 4 element loads: the sanitizers on the
# column-pass lines, and the call 4 build's PTX against the new (bench/ab.sh) at 11 misaligned
# points.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
OUT="$OUT/san" timeout 150 bash bench/sanitize_new.sh $R "colpass" >"$OUT/sanitize.txt" 2>&1
LIMIT=100 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s55/points5.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
tar czf "$OUT/logs.tgz" -C "$OUT" san ab && rm -rf "$OUT/san" "$OUT/ab"
tail -3 "$OUT/sanitize.txt"
cut -c1-100 "$OUT/ab-table.txt" | head -16; tail -3 "$OUT/ab-table.txt" | cut -c1-200
