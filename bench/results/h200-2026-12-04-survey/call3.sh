#!/bin/bash
# call 3: the occupancy rule by sub-partitions (heuristics/targets.c, target_ctas_by_regs) against
# HEAD (32b6269), each build's own pick, at the 71 sm_90 golden points whose config it moves and 40
# of the 154 held-out points it moves (bench/ab_ptx.sh -carry-new -any-config); then rkc tune
# (HEAD's policy) at swiglu_bwd and i8_layernorm bf16, the held-out tiny rows furthest under
# torch.compile in call 1.
set -u
D=bench/results/h200-2026-12-04-survey
for b in head occ; do python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/$b.xz').read())" > /tmp/rkc-$b && chmod +x /tmp/rkc-$b; done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
LIMIT=390 COPY=4274 OUT=$OUT bash bench/ab.sh /tmp/rkc-occ $D/call3-points.txt > $OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt > $OUT/ab-table.txt 2>&1
gzip $OUT/ab.txt
for p in "swiglu_bwd 262144x64" "i8_layernorm 1048576x32"; do set -- $p
  timeout 75 /tmp/rkc-head tune bench/heldout/$1.rk --shape $2 --dtype bf16 --top 12 --copy-gbps 4274 > $OUT/tune-$1-$2.txt 2>&1; echo "tune $p rc $?"
done
sed 's/{[^}]*}//g' $OUT/ab-table.txt | tail -3
for f in $OUT/tune-*.txt; do echo "== $f"; cut -c1-150 $f | tail -22; done
