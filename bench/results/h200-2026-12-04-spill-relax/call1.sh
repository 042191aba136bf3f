#!/bin/bash
# call 1: the picks that ptxas 13.0 spills (27 held-out, 15 sm_90 golden), each against the same
# config with min_ctas lowered (a persistent grid scaled to it) to the highest count that
# assembles without spill stores (found here by rkc compile --ptxas), 30 points; the build of
# a3e9a23 carried as .carry/order.xz.
set -u
D=bench/results/h200-2026-12-04-spill-relax
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/order.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
cp $D/call1-points.txt /tmp/pts.txt
LIMIT=300 COPY=4274 OUT=$OUT bash bench/ab.sh /tmp/rkc /tmp/pts.txt > $OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt > $OUT/ab-table.txt 2>&1
gzip $OUT/ab.txt
sed 's/{[^}]*}//g' $OUT/ab-table.txt | tail -40
