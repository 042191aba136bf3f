#!/bin/bash
# call 6: tiny-row picks whose threads hold 8 or more elements, against twice the threads a row
# at the same rows a CTA, CTAs and warps an SM (tpr-points.txt, shuffled; LIMIT cuts the tail)
set -u
O=${OUT:-out}
R=/tmp/rkc; gunzip -c .carry/rkc.gz > $R; chmod +x $R
OUT=$O/ab LIMIT=330 COPY=4274 bash bench/ab.sh $R .carry/s60/tpr-points.txt > $O/ab-run.txt 2>&1
python3 bench/ab_report.py $O/ab/ab.txt > $O/ab-table.txt 2>&1
cut -c1-72 $O/ab-table.txt
