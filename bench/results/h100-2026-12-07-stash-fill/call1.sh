#!/bin/bash
# The A/B of the branch stash-fill (call 1): main's pick (stash=1, forced) against
# the branch's (stash=0) at the 20 points of points.txt, each run old, new (checked),
# new, old (bench/ab.sh), then bench/ab_report.py's table. Run from the repository root on the GPU
# host, carrying the branch's static release build as .carry/rkc-stash-fill.xz.
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc-stash-fill.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name --format=csv,noheader >$OUT/env.txt
OUT=$OUT LIMIT=400 COPY=3027 bash bench/ab.sh /tmp/rkc bench/results/h100-2026-12-07-stash-fill/points.txt >$OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt | tee $OUT/report.txt | tail -30
