#!/bin/bash
# call 4: min_ctas held to the CTAs an SM whose cap holds the predicted registers
# (heuristics/rkc.c, rkc_min_ctas; target_ctas_by_regs) against HEAD (32b6269), each build's own
# pick (only min_ctas differs), at the 11 points where either build's PTX spills, then the 53 sm_90
# golden points it moves (less those) and 32 of the 131 held-out points it moves, shuffled.
set -u
D=bench/results/h200-2026-12-04-survey
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/hold.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
LIMIT=345 COPY=4274 OUT=$OUT bash bench/ab.sh /tmp/rkc $D/call4-points.txt > $OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt > $OUT/ab-table.txt 2>&1
gzip $OUT/ab.txt
sed 's/{[^}]*}//g' $OUT/ab-table.txt | head -14
sed 's/{[^}]*}//g' $OUT/ab-table.txt | awk '$NF+0>1.02 || ($NF+0<0.98 && $NF+0>0)'
tail -3 $OUT/ab-table.txt
