#!/bin/bash
# call 5: the torch.compile tables on the session's final code (bf16 and fp32 core+transfer, tiny_rows bf16)
R=.carry/rkc
for s in "core,transfer bf16 ct_bf16" "core,transfer f32 ct_f32" "tiny_rows bf16 tiny_bf16"; do
  set -- $s
  timeout 250 python3 bench/torch_compare.py --rkc $R --suites $1 --dtype $2 --copy-gbps 4274 --csv $OUT/tc_$3.csv --workdir /tmp/tcw > $OUT/tc_$3.txt 2>&1
  tail -4 $OUT/tc_$3.txt
done
