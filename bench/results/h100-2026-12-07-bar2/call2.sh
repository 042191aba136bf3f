#!/bin/bash
# Call 2 (95th session): issue 10's bar 2 over every shape of the core and transfer suites (the
# suites its 85.0% was taken over), bf16 and fp32, timed only (bench/gpu_run.sh, CHECK=0: the
# torch.compile tables of h100-2026-12-07-tables checked 3 shapes a kernel of this build). Run from
# the repository root on the GPU host, carrying the build as .carry/rkc-t.xz; the per-kernel logs
# are joined into run.log.
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc-t.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
SUITES="core transfer" SANITIZE=0 CHECK=0 LIMIT=60 OUT=$OUT timeout 500 bash bench/gpu_run.sh /tmp/rkc >$OUT/stdout.txt 2>&1
[ -f $OUT/summary.md ] || python3 bench/summarize.py $OUT >>$OUT/stdout.txt 2>&1
for f in $OUT/run/*.log; do echo "== $(basename $f)"; cat $f; done >$OUT/run.log
rm -rf $OUT/run $OUT/sanitize
tail -12 $OUT/stdout.txt
