#!/bin/bash
# Call 3: the wider bands narrowed after call 1 (.carry/rkc-wide2.xz): at more rows than SMs only
# where a row kept over the largest cluster would still take over half an SM's shared memory, at
# two CTAs an SM or more, and not in the batch-invariant mode. main's pick (.carry/rkc-main.xz's
# policy, forced; old) against the branch's pick (new) at 24 points of its class drawn at random
# (wide2-drawn-points.txt: ../h100-2026-12-07-bands/drawpts.py seed 1209, bounds 132 8192 30000
# 2000000), every run checked against float64. Run from the repository root on the GPU host.
set -u
O=${OUT:-out}
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc-wide2.xz').read())" >/tmp/rkc-wide2
chmod +x /tmp/rkc-wide2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >$O/env.txt
D=bench/results/h200-2026-12-07-wide-bands
LIMIT=210 COPY=3027 OUT=$O/wide2 timeout 250 bash bench/ab.sh /tmp/rkc-wide2 $D/wide2-drawn-points.txt >$O/wide2.log 2>&1
python3 bench/ab_report.py $O/wide2/ab.txt >$O/wide2-table.txt 2>&1
gzip -9 $O/wide2/ab.txt
cut -c1-84 $O/wide2-table.txt | tail -30
