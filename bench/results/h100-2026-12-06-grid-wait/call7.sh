#!/bin/bash
# call 7 (H100): issue 11's tiny-rows suite against torch.compile at bf16 and fp32 (bar 3: at
# least as fast at every point; bar 4: no point under 0.97x), the build of 733ab7f (.carry/rkc.xz).
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt
for d in bf16 f32; do
  timeout 190 python3 bench/torch_compare.py --rkc $R --suites tiny_rows --dtype $d --shapes-per-kernel 4 \
    --copy-gbps 3027 --workdir /tmp/tcw --csv $OUT/tc_tiny_$d.csv > $OUT/tc_tiny_$d.txt 2>&1
  echo "tc $d: $?"
done
for d in bf16 f32; do tail -50 $OUT/tc_tiny_$d.txt | cut -c1-130; done
