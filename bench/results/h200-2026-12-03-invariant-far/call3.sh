#!/bin/bash
# call 3: the points call 2 did not reach (its time limit), widths of 1000003 and under first:
# the old build's invariant pick against the new one's at many rows
# (docs: bench/results/h200-2026-12-03-invariant-far.md)
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-03-invariant-far
for b in rkc rkc0; do python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
OLD_RKC=/tmp/rkc0 LIMIT=480 COPY=4274 OUT=$O/ab timeout 570 bash bench/ab.sh /tmp/rkc $D/call3-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $O/ab/ab.txt > $O/ab-table.txt 2>&1
gzip -9 $O/ab/ab.txt
tail -4 $O/ab-table.txt | cut -c1-200
