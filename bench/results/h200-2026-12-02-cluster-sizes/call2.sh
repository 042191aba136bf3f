#!/bin/bash
# Call 2: kept rows over clusters walked by a persistent grid of clusters (a grid of bands, so far
# only for sums over rows) against the policy's CTA a row segment, at 9 multi-wave picks; the
# driver's clusters at 1-4 CTAs an SM; memcheck on two band grids of a kernel without sums over rows.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
python3 .carry/s59/occ_table.py .carry/s59/occ.ptx .carry/s59/occ.json > "$OUT/occ-table-1-4.txt" 2>&1
cat "$OUT/occ-table-1-4.txt"
for c in "cross_entropy_backward bf16 37x151937 cluster=4,grid=8" "softmax f32 29x30011 cluster=8,grid=16"; do
  set -- $c
  compute-sanitizer --tool memcheck $R run testdata/kernels/$1.rk --dtype $2 --shape $3 --config $4 --check > "$OUT/memcheck-$1-$2.txt" 2>&1
  echo "memcheck $c rc=$? $(grep -E 'ERROR SUMMARY|check' "$OUT/memcheck-$1-$2.txt" | tr '\n' ' ' | cut -c1-160)"
done
LIMIT=420 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s59/ab2-points.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
cp "$OUT/ab/ab.txt" "$OUT/ab2.txt"; rm -rf "$OUT/ab"
cut -c1-120 "$OUT/ab-table.txt" | head -40
