#!/bin/bash
# call 5: rkc tune at the few-row colsum points still under torch.compile (call 4): does any
# candidate of the policy's ranking beat the pick?
set -u
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/final.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
for p in "masked_pool 8x1000003 bf16" "masked_pool 8x1000003 fp32" "colonly 8x1000003 bf16" "masked_pool 1024x131072 bf16"; do
  set -- $p
  timeout 120 /tmp/rkc tune bench/heldout/$1.rk --shape $2 --dtype $3 --top 24 --copy-gbps 4274 --inputs bench/heldout/inputs.json > $OUT/tune-$1-$2-$3.txt 2>&1
  cut -c1-120 $OUT/tune-$1-$2-$3.txt | tail -12
done
