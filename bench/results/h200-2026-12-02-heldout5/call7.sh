#!/bin/bash
# call 7: rkc tune at the tiny-row held-out points under 1.0x torch.compile (narrow inputs or outputs)
set -u
O=${OUT:-out}
gunzip -c .carry/rkc.gz > /tmp/rkc && chmod +x /tmp/rkc
while read k s d; do
  echo "== $k $d $s" >> $O/tune.txt
  timeout 60 /tmp/rkc tune bench/heldout/$k.rk --shape $s --dtype $d --top 12 --copy-gbps 4274 >> $O/tune.txt 2>&1
done <<'PTS'
fp8_in_rms 1048576x32 bf16
fp8_in_rms 262144x64 bf16
keep_mask 1048576x32 bf16
keep_mask 16384x1024 bf16
PTS
grep -E "^==|TUNE" $O/tune.txt | sed 's/best_config.*//'
