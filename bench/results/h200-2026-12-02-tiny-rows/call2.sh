#!/bin/bash
# call 2: rkc tune (the policy's first 32, every candidate checked) at the tiny_rows points where
# call 1 found rkc slower than torch.compile
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc
R=/tmp/rkc
mkdir -p $OUT/tune
while read k d s; do
  d2=$d; [ $d = f32 ] && d2=fp32
  timeout 60 $R tune testdata/kernels/$k.rk --shape $s --dtype $d2 --top 32 --copy-gbps 4274 > $OUT/tune/$k-$d-$s.log 2>&1
  echo "$k $d $s: $(grep -E '^ *1 ' $OUT/tune/$k-$d-$s.log | head -1 | cut -c1-90) | seed: $(grep 'seed (rkc)' $OUT/tune/$k-$d-$s.log | cut -c1-80)"
done < bench/results/h200-2026-12-02-tiny-rows/call2-points.txt
tar czf $OUT/tune.tgz -C $OUT tune && rm -rf $OUT/tune
