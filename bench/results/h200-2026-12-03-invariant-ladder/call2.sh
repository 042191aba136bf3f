#!/bin/bash
# call 2: call 1's A/B at the 89 points it had no time for (64 to 100003 rows), the most rows last
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-03-invariant-ladder
for b in rkc rkc.head; do python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
OLD_RKC=/tmp/rkc.head LIMIT=480 COPY=4274 OUT=$O/ab timeout 540 bash bench/ab.sh /tmp/rkc $D/call2-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $O/ab/ab.txt > $O/ab-table.txt 2>&1
gzip -9 $O/ab/ab.txt
tail -6 $O/ab-table.txt | cut -c1-160
