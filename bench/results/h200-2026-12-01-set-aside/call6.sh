#!/bin/bash
# call 6: rkc tune --top 1 at 50 points where a dropping rule of the policy set a candidate aside:
# the seed against each rule's best set-aside candidate (cand x)
gunzip -k -f .carry/rkc.gz; mkdir -p $OUT
start=$(date +%s)
while read -r k d s; do
  [ $(( $(date +%s) - start )) -gt 430 ] && echo "skipped $k $d $s" && continue
  timeout 60 .carry/rkc tune testdata/kernels/$k.rk --shape $s --dtype $d --top 1 --no-check --copy-gbps 4274 --json >> $OUT/tune.jsonl 2>> $OUT/tune.err
done < .carry/pts.txt
python3 .carry/aside_report.py $OUT/tune.jsonl > $OUT/aside-table.txt 2>&1
tail -8 $OUT/aside-table.txt
awk '$7 < 0.95' $OUT/aside-table.txt | cut -c1-200 | head -30
