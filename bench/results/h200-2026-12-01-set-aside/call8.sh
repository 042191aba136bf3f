#!/bin/bash
# call 8: kl_div 1024x250000 at the seed's config (3 CTAs an SM) and at 2, the PTX of 7ff2be4
# (2026-11-29's tune bar) against this build's
mkdir -p $OUT/ab; tar xzf .carry/ab.tgz -C .carry; gunzip -k -f .carry/rkc.gz
LIMIT=150 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab/table.txt 2>&1
cut -c1-90 $OUT/ab/table.txt
