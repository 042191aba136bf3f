#!/bin/bash
# Row branches, call 9: the final build against torch.compile over the core and transfer suites
# (51 points) and the tiny_rows suite (44 points), fp32 and bf16, every point checked against
# float64. Run from the repository root on the GPU host with .carry/new.xz.
set -u
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/env.txt
for d in f32 bf16; do
	timeout 150 python3 bench/torch_compare.py --rkc /tmp/rkc --suites core,transfer --dtype $d --copy-gbps 4274 --csv $OUT/tc_ct_$d.csv --workdir /tmp/tcw > $OUT/tc_ct_$d.txt 2>&1
	timeout 120 python3 bench/torch_compare.py --rkc /tmp/rkc --suites tiny_rows --dtype $d --shapes-per-kernel 4 --copy-gbps 4274 --csv $OUT/tc_tiny_$d.csv --workdir /tmp/tcw > $OUT/tc_tiny_$d.txt 2>&1
	rm -f $OUT/torch_compare.json
done
for f in $OUT/tc_*.txt; do echo "$(basename $f): $(grep -cE '^(core|transfer|tiny_rows) .* ok$' $f) points, under 1.0x: $(grep -E '^(core|transfer|tiny_rows) ' $f | awk '$8 < 1.0' | wc -l)"; tail -n 1 $f | cut -c1-110; done
