#!/bin/bash
# Call 1: the one-warp CTAs of short rows (class.py lists them, pts.py samples 79 and adds two
# tiny_rows points): each pick against the same rows a CTA over 2 warps (a: twice the threads a
# row) and against twice the rows over 2 warps (b: the same threads a row). Run from the
# repository root on the GPU host with the static build xz-compressed at .carry/rkc.xz.
set -u
D=bench/results/h100-2026-12-06-one-warp
OUT=${OUT:-out}
mkdir -p "$OUT"
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/rkc.xz >/tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$OUT/call1-env.txt"
OUT=$OUT/a LIMIT=${LIMIT_A:-265} COPY=3027 bash bench/ab.sh /tmp/rkc $D/call1-a-points.txt >"$OUT/call1-a-table.txt" 2>&1
OUT=$OUT/b LIMIT=${LIMIT_B:-265} COPY=3027 bash bench/ab.sh /tmp/rkc $D/call1-b-points.txt >"$OUT/call1-b-table.txt" 2>&1
gzip -f "$OUT/a/ab.txt" "$OUT/b/ab.txt"
tail -8 "$OUT/call1-a-table.txt" "$OUT/call1-b-table.txt"
