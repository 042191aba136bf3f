#!/bin/bash
# call 6: the narrow_bwd suite (where the ring's picks moved) against torch.compile at bf16, the
# final build
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
timeout 300 python3 bench/torch_compare.py --rkc $R --suites narrow_bwd --dtype bf16 --shapes-per-kernel 8 --liger .carry/liger/liger_kernel-0.8.5-py3-none-any.whl --copy-gbps 4274 --workdir /tmp/tcw --csv $OUT/tc_narrow_bf16.csv > $OUT/tc_narrow_bf16.txt 2>&1; echo "tc: $?"
tail -22 $OUT/tc_narrow_bf16.txt | cut -c1-160
