#!/bin/bash
# Call 1 (95th session): issue 10's bar 2 on the long_rows suite, the first since the bands at
# more rows than SMs: every kernel at its four shapes, bf16 and fp32, checked against float64
# and timed (bench/gpu_run.sh, no sanitizer; the percentages are recomputed over 3027 GB/s, the
# copy rate the torch.compile tables use). Run from the repository root on the GPU host, carrying the build
# as .carry/rkc-t.xz; the per-kernel logs are joined into run.log.
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc-t.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
SUITES=long_rows SANITIZE=0 LIMIT=120 OUT=$OUT timeout 480 bash bench/gpu_run.sh /tmp/rkc >$OUT/stdout.txt 2>&1
for f in $OUT/run/*.log; do echo "== $(basename $f)"; cat $f; done >$OUT/run.log
rm -rf $OUT/run $OUT/sanitize
tail -30 $OUT/stdout.txt
