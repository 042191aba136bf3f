#!/bin/bash
# Call 4: the branch streamed-bands' final rule (streamed bands where the rows in flight and their
# outputs fit the L2 and a thread's chunk fits the registers the grid leaves it) at 10 points of
# its class drawn afresh (drawpts.py at 600 MB an array, seed 1298) and the two cov_corr fp32
# points of call 2 whose pick the chunk's words moved; main's pick forced (old) against the
# final pick (new), each point old, new (checked), new, old (bench/ab.sh). Run from the
# repository root on the GPU host, carrying the final static release build as .carry/rkc97sb2.xz.
set -u
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc97sb2.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
D=bench/results/h100-2026-12-07-streamed-bands
T0=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; /tmp/rkc --version; } >$OUT/env.txt 2>&1
OUT=$OUT LIMIT=300 COPY=3027 bash bench/ab.sh /tmp/rkc $D/drawn2-points.txt >$OUT/ab-stdout.txt 2>&1
echo "ab: $(( $(date +%s) - T0 )) s" >>$OUT/env.txt
python3 bench/ab_report.py $OUT/ab.txt >$OUT/report.txt 2>&1
cat $OUT/env.txt; cut -c1-110 $OUT/report.txt | tail -16
grep '^new' $OUT/ab.txt | grep -o 'kernel=[^ ]* dtype=[^ ]* M=[0-9]* N=[0-9]* status=[a-z]*\|regs=[0-9]* local=[0-9]*' | paste - - | sort -u
