#!/bin/bash
# call 5: log_softmax_backward at fp16 with y drawn as a row's log-softmax (call 4's two failed
# checks, torch.compile's too, came from a normal y), all seven held-out shapes
set -u
O=${OUT:-out}
gunzip -c .carry/rkc.gz > /tmp/rkc && chmod +x /tmp/rkc
timeout 150 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels log_softmax_backward --dtype f16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_f16_lsb.csv --json $O/tc_f16_lsb.json > $O/tc_f16_lsb.txt 2>&1
tail -12 $O/tc_f16_lsb.txt
