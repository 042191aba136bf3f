#!/bin/bash
# call 4: the 9 batch-invariant points of call 3 whose old pick the new build may not force (the
# mode fixes the reduction order to its own pick): each build runs its own pick (OLD_RKC)
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-02-issue-term
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/rkc.head.xz > /tmp/rkc.head && chmod +x /tmp/rkc.head
OLD_RKC=/tmp/rkc.head LIMIT=120 COPY=4274 OUT=$O timeout 150 bash bench/ab.sh /tmp/rkc $D/call4-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $O/ab.txt > $O/ab-table.txt 2>&1
gzip -9 $O/ab.txt
cut -c1-100 $O/ab-table.txt
