#!/bin/bash
# call 1: the column pass streamed in the model, the rows' own bytes, settle_colpass by the model
# too: the build before (old) against this one (new), each its own pick, at every point the host
# scan moves, and three own-pass picks the rule keeps with the column pass forced on their rows.
set -u
D=bench/results/h200-2026-12-04-colpass-stream
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/new.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/old.xz').read())" > /tmp/rkc-old && chmod +x /tmp/rkc-old
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
grep -v '^#' $D/call1-points.txt > /tmp/pts.txt
OLD_RKC=/tmp/rkc-old LIMIT=520 COPY=4274 OUT=$OUT bash bench/ab.sh /tmp/rkc /tmp/pts.txt > $OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt > $OUT/ab-table.txt 2>&1
gzip $OUT/ab.txt
sed 's/{[^}]*}//g' $OUT/ab-table.txt | tail -60
