#!/bin/bash
# call 5: the kept rule (min_ctas at most a sixth under the predicted registers, SQUEEZE_MAX) against
# HEAD (32b6269) at the 11 held-out points it moves (7 measured in call 4, 4 not), each build's own
# pick; then the final build against torch.compile on the held-out kernels it moves,
# bf16, their seven shapes.
set -u
D=bench/results/h200-2026-12-04-survey
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/sixth.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
cp $D/call5-points.txt /tmp/pts.txt
LIMIT=120 COPY=4274 OUT=$OUT bash bench/ab.sh /tmp/rkc /tmp/pts.txt > $OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt > $OUT/ab-table.txt 2>&1
gzip $OUT/ab.txt
timeout 130 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels swiglu_bwd,keep_mask,swiglu_norm,pow_norm --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $OUT/tc_bf16.csv > $OUT/tc_bf16.txt 2>&1
rm -f $OUT/torch_compare.json
sed 's/{[^}]*}//g' $OUT/ab-table.txt | tail -25
tail -30 $OUT/tc_bf16.txt | cut -c1-120
