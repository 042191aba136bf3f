#!/bin/bash
# call 3: the wide_bwd suite points not timed in calls 1-2 (old PTX against the final pick), then
# the wide_bwd suite at bf16 and the held-out colonly at bf16 against torch.compile
mkdir -p $OUT/ab; tar xzf .carry/ab.tgz -C .carry; gunzip -k -f .carry/rkc.gz
LIMIT=120 COPY=4274 OUT=$OUT/ab bash bench/ab.sh .carry/rkc .carry/pts.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab/table.txt 2>&1
timeout 200 python3 bench/torch_compare.py --rkc .carry/rkc --heldout bench/heldout --kernels colonly --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw1 --json $OUT/tc_colonly_bf16.json --csv $OUT/tc_colonly_bf16.csv > $OUT/tc_colonly_bf16.txt 2>&1
timeout 240 python3 bench/torch_compare.py --rkc .carry/rkc --suites wide_bwd --dtype bf16 --shapes-per-kernel 6 --copy-gbps 4274 --workdir /tmp/tcw2 --json $OUT/tc_wide_bf16.json --csv $OUT/tc_wide_bf16.csv > $OUT/tc_wide_bf16.txt 2>&1
awk '{print $1,$2,$3,$4,$5,$6}' $OUT/ab/table.txt | tail -12
tail -10 $OUT/tc_colonly_bf16.txt; tail -15 $OUT/tc_wide_bf16.txt
cd $OUT && gzip ab/ab.txt
