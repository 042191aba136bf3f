#!/bin/bash
# call 1: the batch-invariant order chosen from N over a ladder of M (heuristics/rkc.c,
# invariant_ref): the old build's invariant pick against the new build's, each build its own pick
# ("pick pick --batch-invariant"), at the 216 sm_90 golden points whose pick moves, fewest rows
# first; every new run checked against float64
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-03-invariant-ladder
for b in rkc rkc.head; do python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $O/env.txt
OLD_RKC=/tmp/rkc.head LIMIT=500 COPY=4274 OUT=$O/ab timeout 560 bash bench/ab.sh /tmp/rkc $D/call1-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $O/ab/ab.txt > $O/ab-table.txt 2>&1
grep -c "skipped" $O/ab/ab.txt
gzip -9 $O/ab/ab.txt
tail -6 $O/ab-table.txt | cut -c1-160
