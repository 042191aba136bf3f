#!/bin/bash
# Call 2 (the same warm machine, after call 1): bench/sanitize_new.sh with the build of call 1, every
# new codegen path checked against float64 and under compute-sanitizer memcheck, racecheck and
# synccheck, stopped at 420 s (it reached its 84th line of 92). Run from the repository root on the
# GPU host.
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc-t.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name --format=csv,noheader >$OUT/env.txt
OUT=$OUT/san timeout 420 bash bench/sanitize_new.sh /tmp/rkc >$OUT/san.log 2>&1
echo rc $?
