#!/bin/bash
# call 7: the torch.compile tables on the session's final code: core+transfer bf16 and fp32, tiny_rows bf16
R=.carry/rkc
run() { python3 bench/torch_compare.py --rkc $R --suites $1 --dtype $2 --copy-gbps 4274 --csv $OUT/tc_$3_$2.csv --workdir /tmp/tcw > $OUT/tc_$3_$2.txt 2>&1; echo "$1 $2: $(tail -1 $OUT/tc_$3_$2.txt)"; }
run core,transfer bf16 ct
run core,transfer f32 ct
run tiny_rows bf16 tiny
