#!/bin/bash
# call 3: the final build against the build before this change, each its own pick, at the points
# the final cost model (the column pass's time the longer of its bytes and its round trips) moves
# past call 1's build.
set -u
D=bench/results/h200-2026-12-04-colpass-stream
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/final.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/old.xz').read())" > /tmp/rkc-old && chmod +x /tmp/rkc-old
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
grep -v '^#' $D/call3-points.txt > /tmp/pts.txt
OLD_RKC=/tmp/rkc-old LIMIT=420 COPY=4274 OUT=$OUT bash bench/ab.sh /tmp/rkc /tmp/pts.txt > $OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt > $OUT/ab-table.txt 2>&1
gzip $OUT/ab.txt
sed 's/{[^}]*}//g' $OUT/ab-table.txt | tail -40
