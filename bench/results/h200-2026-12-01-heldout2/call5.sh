#!/bin/bash
# call 5: the H100 target's picks (old) against the same model with the H200's copy bandwidth and
# L2 (new), at every suite point whose pick moves (bf16 and fp32)
mkdir -p $OUT
LIMIT=520 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/tgt_pts.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab/table.txt 2>&1
tail -3 $OUT/ab/table.txt
awk 'NF>=6 && $4+0>0 {print $1, $2, $3, $4, $5, $6}' $OUT/ab/table.txt
cd $OUT && gzip ab/ab.txt
