#!/bin/bash
# call 5: rkc tune at the two held-out points furthest under torch.compile after call 4
set -u
O=${OUT:-out}
R=/tmp/rkc; gunzip -c .carry/rkc.gz > $R; chmod +x $R
timeout 150 $R tune bench/heldout/linf_norm.rk --dtype bf16 --shape 1048576x32 --top 16 --copy-gbps 4274 > $O/tune-linf.txt 2>&1
timeout 200 $R tune bench/heldout/rms_colsum.rk --dtype bf16 --shape 1024x131072 --top 12 --copy-gbps 4274 > $O/tune-rmscs.txt 2>&1
tail -25 $O/tune-linf.txt; tail -20 $O/tune-rmscs.txt
