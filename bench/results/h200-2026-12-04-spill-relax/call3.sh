#!/bin/bash
# call 3: few-row colsum picks at one CTA an SM that ptxas spills, against half the warps
# (forced, the rest of the config the policy's), the guard's build (7964bff).
set -u
D=bench/results/h200-2026-12-04-spill-relax
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/guard.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
grep -v '^#' $D/call3-points.txt > /tmp/pts.txt
LIMIT=300 COPY=4274 OUT=$OUT bash bench/ab.sh /tmp/rkc /tmp/pts.txt > $OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt > $OUT/ab-table.txt 2>&1
gzip $OUT/ab.txt
sed 's/{[^}]*}//g' $OUT/ab-table.txt | tail -20
