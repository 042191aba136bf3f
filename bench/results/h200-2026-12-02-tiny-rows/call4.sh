#!/bin/bash
# call 4: ONE_SECTOR (heuristics/cost.c): the old build's pick against the new at the 50 points
# movepts.py finds (and layer_norm bf16 1048576x129, a tiny_rows golden pick), then the 7 sm_90
# batch-invariant golden picks it moves (each build its own pick), then tiny_rows against
# torch.compile for the two tiny_rows picks that move (both builds for dynamic_quant fp32)
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-02-tiny-rows
for b in rkc rkc.head; do python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
LIMIT=240 COPY=4274 OUT=$O/ab timeout 270 bash bench/ab.sh /tmp/rkc $D/call4-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $O/ab/ab.txt > $O/ab-table.txt 2>&1
OLD_RKC=/tmp/rkc.head LIMIT=80 COPY=4274 OUT=$O/inv timeout 100 bash bench/ab.sh /tmp/rkc $D/call4-inv-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $O/inv/ab.txt > $O/inv-table.txt 2>&1
gzip -9 $O/ab/ab.txt $O/inv/ab.txt
tail -4 $O/ab-table.txt | cut -c1-150; cut -c1-90 $O/inv-table.txt
for b in rkc.head rkc; do
  timeout 100 python3 bench/torch_compare.py --rkc /tmp/$b --suites tiny_rows --kernels dynamic_quant --dtype f32 --shapes-per-kernel 4 --copy-gbps 4274 --csv $O/tc-$b.csv --workdir /tmp/tcw > $O/tc-$b.txt 2>&1
  grep -E "dynamic_quant +1048576|geomean" $O/tc-$b.txt
done
timeout 60 python3 bench/torch_compare.py --rkc /tmp/rkc --suites tiny_rows --kernels layer_norm --dtype bf16 --shapes-per-kernel 4 --copy-gbps 4274 --csv $O/tc-ln-bf16.csv --workdir /tmp/tcw > $O/tc-ln-bf16.txt 2>&1
grep -E "1048576|geomean" $O/tc-ln-bf16.txt
