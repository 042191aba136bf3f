#!/bin/bash
# call 2: what the moved invariant orders cost at many rows: the old build's invariant pick
# against the new one's at 256 rows (2048 at 262144 and 128256 columns) of every kernel, dtype
# and width call 1 moved, and jsd bf16 8192x151936, which call 1 did not reach
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-03-invariant-far
for b in rkc rkc0; do python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
OLD_RKC=/tmp/rkc0 LIMIT=500 COPY=4274 OUT=$O/ab timeout 570 bash bench/ab.sh /tmp/rkc $D/call2-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $O/ab/ab.txt > $O/ab-table.txt 2>&1
gzip -9 $O/ab/ab.txt
tail -4 $O/ab-table.txt | cut -c1-200
