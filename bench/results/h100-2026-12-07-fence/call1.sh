#!/bin/bash
# Call 1 (99th session): the workspace's fences as fence.acq_rel.gpu against membar.gl, an A/B of
# the PTX of both builds (bench/ab_ptx.sh -carry-new main branch-build points-fence.txt
# .carry/ab99) at the points whose PTX changes, largest first, the backward kernels one in four;
# then the kept band of one CTA an SM (extra.txt). Run from the repository root on the GPU host,
# carrying main's static release build as .carry/rkc99.xz and the PTX as .carry/ab99.
# env FENCE_LIMIT, EXTRA_LIMIT: bench/ab.sh's LIMIT for each part.
set -u
D=bench/results/h100-2026-12-07-fence
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc99.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv >$OUT/env.txt 2>&1
head -2 $OUT/env.txt
OUT=$OUT LIMIT=${FENCE_LIMIT:-300} COPY=3027 bash bench/ab.sh /tmp/rkc $D/points-fence.txt >/dev/null 2>&1
python3 bench/ab_report.py $OUT/ab.txt > $OUT/report.txt 2>&1
tail -22 $OUT/report.txt
mkdir -p $OUT/extra
OUT=$OUT/extra LIMIT=${EXTRA_LIMIT:-45} COPY=3027 bash bench/ab.sh /tmp/rkc $D/extra.txt >/dev/null 2>&1
python3 bench/ab_report.py $OUT/extra/ab.txt | tail -8
