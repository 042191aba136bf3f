#!/bin/bash
# Call 1: issue 10's few-rows suite against torch.compile on the H100 with the build of main
# (d1f2b7d, static release, xz-compressed at .carry/rkc.xz): bf16 and fp32, three shapes a kernel,
# every point checked against float64 (bench/torch_compare.py).
# Run from the repository root on the GPU host.
set -u
O=${OUT:-out}
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >$O/env.txt
for d in bf16 fp32; do
	timeout 270 python3 bench/torch_compare.py --rkc /tmp/rkc --suites few_rows --dtype $d --shapes-per-kernel 3 \
		--copy-gbps 3027 --workdir /tmp/tcw-$d --csv $O/tc_few_$d.csv >$O/tc_few_$d.txt 2>&1
	echo "few_rows $d rc $?"
done
rm -f $O/torch_compare.json
for d in bf16 fp32; do
	echo "== $d: under 1.0x:"
	awk -F, 'NR>1 && $9<1.0 {print $2,$3,$4"x"$5,$7,$8,$9,$12}' $O/tc_few_$d.csv
	tail -4 $O/tc_few_$d.txt
done
