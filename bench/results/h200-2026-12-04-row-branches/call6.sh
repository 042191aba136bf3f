#!/bin/bash
# Row branches, call 6: the old build's PTX against 1b0d3c5's (the wider form) at the 36 tiny_rows bf16
# points of call 5 whose PTX changed (rows of 16-256 columns, m_block > 1: the vectors inside the
# body load without a branch, the stores keep theirs).
# Run from the repository root on the GPU host with .carry/new.xz and .carry/ab.
set -u
D=bench/results/h200-2026-12-04-row-branches
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
LIMIT=400 COPY=4274 OUT=$OUT bash bench/ab.sh /tmp/rkc $D/call6-points.txt > $OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt > $OUT/ab-table.txt 2>&1
gzip $OUT/ab.txt
rm -f $OUT/ab-stdout.txt
sed 's/{[^}]*}//g' $OUT/ab-table.txt
