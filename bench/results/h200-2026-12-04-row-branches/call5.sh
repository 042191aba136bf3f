#!/bin/bash
# Row branches, call 5: the build of 1b0d3c5 (the wider form, not kept) against torch.compile over the tiny_rows suite,
# bf16 and fp32 (44 points each, every point checked against float64).
# Run from the repository root on the GPU host with .carry/new.xz.
set -u
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/env.txt
for d in bf16 f32; do
	timeout 280 python3 bench/torch_compare.py --rkc /tmp/rkc --suites tiny_rows --dtype $d --shapes-per-kernel 4 --copy-gbps 4274 --csv $OUT/tc_tiny_$d.csv --workdir /tmp/tcw > $OUT/tc_tiny_$d.txt 2>&1
	rm -f $OUT/torch_compare.json
	grep -E "^tiny_rows " $OUT/tc_tiny_$d.txt | awk '$8 < 1.0'
	tail -n 2 $OUT/tc_tiny_$d.txt
done
