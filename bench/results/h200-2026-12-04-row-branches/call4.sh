#!/bin/bash
# Row branches, call 4: the build of 1b0d3c5 (the wider form, not kept) against torch.compile over the core and
# transfer suites, fp32 and bf16 (51 points each, every point checked against float64).
# Run from the repository root on the GPU host with .carry/new.xz.
set -u
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/env.txt
/tmp/rkc --version >> $OUT/env.txt
for d in f32 bf16; do
	timeout 270 python3 bench/torch_compare.py --rkc /tmp/rkc --suites core,transfer --dtype $d --copy-gbps 4274 --csv $OUT/tc_ct_$d.csv --workdir /tmp/tcw > $OUT/tc_ct_$d.txt 2>&1
	rm -f $OUT/torch_compare.json
	grep -E "^(core|transfer) " $OUT/tc_ct_$d.txt | awk '$8 < 1.0'
	tail -n 3 $OUT/tc_ct_$d.txt
done
