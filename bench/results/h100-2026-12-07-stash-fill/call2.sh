#!/bin/bash
# Call 2: the rule at STASH_ISSUE_SHARE 0.6 at 15 points outside call 1 (share-points.txt), each
# point old, new (checked), new, old (bench/ab.sh). Run from the repository root on the GPU host,
# carrying the branch stash-fill's static release build at 0.6 as .carry/rkc-share.xz.
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc-share.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name --format=csv,noheader >$OUT/env.txt
OUT=$OUT LIMIT=170 COPY=3027 bash bench/ab.sh /tmp/rkc bench/results/h100-2026-12-07-stash-fill/share-points.txt >$OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt | tee $OUT/report.txt | cut -c1-90 | tail -20
