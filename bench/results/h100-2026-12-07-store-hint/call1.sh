#!/bin/bash
# Call 1 (an experiment, the branch store-hint, not on main): the streamed bands' stores with the
# L2 evict_first policy (st.global.L2::cache_hint), so that what a band writes leaves the L2
# before the rows its later passes read again. Each point old, new (checked), new, old
# (bench/ab.sh), the PTX compiled here by main's build (plain) and the branch's (hint); then the
# two bands that lost to main's pick against that pick. Run from the repository root on the GPU
# host, carrying a static release build of main as .carry/rkc97sb2.xz.
set -u
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc97sb2.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
D=bench/results/h100-2026-12-07-store-hint
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; /tmp/rkc --version; } >$OUT/env.txt 2>&1
T0=$(date +%s)
OUT=$OUT LIMIT=150 COPY=3027 bash bench/ab.sh /tmp/rkc $D/points.txt >$OUT/ab-stdout.txt 2>&1
echo "ab: $(( $(date +%s) - T0 )) s" >>$OUT/env.txt
python3 bench/ab_report.py $OUT/ab.txt >$OUT/report.txt 2>&1
cat $OUT/env.txt; cut -c1-100 $OUT/report.txt | tail -14
