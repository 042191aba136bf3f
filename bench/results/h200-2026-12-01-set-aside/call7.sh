#!/bin/bash
# call 7: wide_bwd at fp32 against torch.compile with this session's build; then issue 10's bar 5
# (the seed within 5% of the best rkc tune finds) over the core suite, now with cand x
gunzip -k -f .carry/rkc.gz; mkdir -p $OUT
timeout 200 python3 bench/torch_compare.py --rkc .carry/rkc --suites wide_bwd --dtype f32 --shapes-per-kernel 6 --copy-gbps 4274 --workdir /tmp/tcw3 --json $OUT/tc_wide_f32.json --csv $OUT/tc_wide_f32.csv > $OUT/tc_wide_f32.txt 2>&1
tail -14 $OUT/tc_wide_f32.txt
OUT=$OUT/tune SUITES=core LIMIT=40 timeout 330 bash bench/tune_run.sh .carry/rkc > $OUT/tune_run.txt 2>&1
tail -28 $OUT/tune_run.txt
cd $OUT && tar czf tune.tgz tune && rm -rf tune
