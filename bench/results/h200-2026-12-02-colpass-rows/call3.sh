#!/bin/bash
# call 3: rkc tune at points of the class take_colpass_rows takes (a colsum needing a row
# reduction, a whole row's partials past shared memory, rows that fill the SMs): the model's
# ranking of the column pass over whole rows, timed and checked, against the best band it set aside
set -u
O=${OUT:-out}
gunzip -c .carry/rkc.gz > /tmp/rkc && chmod +x /tmp/rkc
t0=$(date +%s)
while read k s d; do
  [ $(( $(date +%s) - t0 )) -gt 500 ] && { echo "SKIP $k $s $d" >> $O/tune.txt; continue; }
  echo "== $k $d $s" >> $O/tune.txt
  timeout 120 /tmp/rkc tune bench/heldout/$k.rk --shape $s --dtype $d --top 10 --copy-gbps 4274 >> $O/tune.txt 2>&1
done <<'PTS'
rms_colsum 1024x131072 bf16
rms_colsum 1024x131072 f32
rms_colsum 1500x80000 bf16
rms_colsum 2048x65536 f32
ln_bwd_recompute 1024x131072 bf16
ln_bwd_recompute 2048x65536 f32
ln_bwd_recompute 1500x80000 bf16
moe_aux 1024x131072 bf16
moe_aux 256x131072 f32
rms_colsum 256x131072 bf16
PTS
grep -E "^==|TUNE|SKIP" $O/tune.txt
