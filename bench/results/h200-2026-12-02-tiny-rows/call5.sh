#!/bin/bash
# call 5: call 1 again on the build with ONE_SECTOR (the tiny_rows suite against torch.compile,
# every shape, bf16 then fp32), without the Inductor logs
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc
R=/tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/env.txt
$R --version >> $OUT/env.txt
for d in bf16 f32; do
  timeout 280 python3 bench/torch_compare.py --rkc $R --suites tiny_rows --dtype $d \
    --shapes-per-kernel 4 --copy-gbps 4274 --csv $OUT/tc_tiny_$d.csv --workdir /tmp/tcw > $OUT/tc_tiny_$d.txt 2>&1
  grep -E "^tiny_rows " $OUT/tc_tiny_$d.txt | awk '$8 < 1.0'
  tail -3 $OUT/tc_tiny_$d.txt
done
