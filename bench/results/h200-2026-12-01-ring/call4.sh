#!/bin/bash
# call 4: tiny rows (issue 11 bar 3): the CTA-a-row-block pick against a persistent grid of the
# same CTAs with the ring (ahead=2) and with the next block in registers (ahead=1)
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
LIMIT=200 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts4.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
cut -c1-100 $OUT/ab-table.txt | tail -18
