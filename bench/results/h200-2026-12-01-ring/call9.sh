#!/bin/bash
# call 9: few_rows_bwd against torch.compile at bf16 and fp32 (issue 13 bar 2's few-row points;
# no pick there moved this session), the final build
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
for d in bf16 f32; do
timeout 130 python3 bench/torch_compare.py --rkc $R --suites few_rows_bwd --dtype $d --shapes-per-kernel 6 --copy-gbps 4274 --workdir /tmp/tcw --csv $OUT/tc_few_bwd_$d.csv > $OUT/tc_few_bwd_$d.txt 2>&1; echo "tc $d: $?"
tail -1 $OUT/tc_few_bwd_$d.txt | cut -c1-200
done
