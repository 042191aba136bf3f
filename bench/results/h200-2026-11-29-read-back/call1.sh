#!/bin/bash
# call 1: (a) the colsum units batched (branch) against main at 25 backward points (both PTX
# carried); (b) grids of cooperative rows at few long rows, forced configs against the pick
mkdir -p $OUT/ab $OUT/sweep
LIMIT=170 COPY=4274 OUT=$OUT/ab timeout 190 bash bench/ab.sh .carry/rkc .carry/pts.txt > $OUT/ab-report.txt 2>&1
n=0
while read -r k d s c; do
  n=$((n+1))
  cfg=(); [ "$c" != pick ] && cfg=(--config "$c")
  timeout 60 .carry/rkc run testdata/kernels/$k.rk --dtype $d --shape $s "${cfg[@]}" --check --time --copy-gbps 4274 > $OUT/sweep/$n.txt 2>&1
  r=$(grep RESULT $OUT/sweep/$n.txt | sed 's/.*status=\([a-z]*\).* us=\([0-9.]*\).*copy_pct=\([0-9.]*\).*/\1 \2us \3%/')
  echo "$n $k $d $s $c :: $r $(grep -m1 -i error $OUT/sweep/$n.txt | cut -c1-150)" | tee -a $OUT/sweep.txt
done < .carry/sweep.txt
echo ===; sed 's/  {.*//' $OUT/ab-report.txt | tail -30
