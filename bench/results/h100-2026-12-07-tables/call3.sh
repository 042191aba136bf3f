#!/bin/bash
# Call 3 (the same warm machine, after call 2): the tiny_rows suite against torch.compile with the
# build of call 1, four shapes a kernel, every point checked against float64. Run from the
# repository root on the GPU host.
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc-t.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name --format=csv,noheader >$OUT/env.txt
for d in bf16 f32; do
	timeout 110 python3 bench/torch_compare.py --rkc /tmp/rkc --suites tiny_rows --dtype $d --shapes-per-kernel 4 \
		--copy-gbps 3027 --workdir /tmp/tcw-t$d --csv $OUT/tc_tiny_$d.csv >$OUT/tc_tiny_$d.txt 2>&1
	echo "$d rc $?"
	awk -F, 'NR>1 && $9<1.0 {print $2,$3,$4"x"$5,$7,$8,$9}' $OUT/tc_tiny_$d.csv
	tail -1 $OUT/tc_tiny_$d.txt
done
rm -f $OUT/torch_compare.json
