#!/bin/bash
# Row branches, call 7: the early return alone (no vector_inside: the vectors of a chunk keep their
# masks, which LLVM folds once the row is known real), the old build's PTX against the new one's at
# the 55 points of calls 1 and 2 whose pick holds one persistent row a CTA (the only PTX the early
# return changes). Run from the repository root on the GPU host with .carry/new.xz and .carry/ab.
set -u
D=bench/results/h200-2026-12-04-row-branches
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
LIMIT=420 COPY=4274 OUT=$OUT bash bench/ab.sh /tmp/rkc $D/call7-points.txt > $OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt > $OUT/ab-table.txt 2>&1
gzip $OUT/ab.txt
rm -f $OUT/ab-stdout.txt
sed 's/{[^}]*}//g' $OUT/ab-table.txt
