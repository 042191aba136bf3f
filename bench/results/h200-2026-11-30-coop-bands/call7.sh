#!/bin/bash
# call 7: few_rows_bwd against torch.compile with the final build, bf16 and fp32
R=.carry/rkc
for d in bf16 f32; do
  timeout 150 python3 bench/torch_compare.py --rkc $R --suites few_rows_bwd --dtype $d --shapes-per-kernel 6 --copy-gbps 4274 --csv $OUT/tc_frb_$d.csv --workdir /tmp/tcw > $OUT/tc_frb_$d.txt 2>&1
  tail -15 $OUT/tc_frb_$d.txt
done
rm -f $OUT/torch_compare.json
