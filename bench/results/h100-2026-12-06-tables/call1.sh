#!/bin/bash
# Call 1: the torch.compile tables on the H100 with the build of main (d1f2b7d, static release,
# xz-compressed at .carry/rkc.xz), bf16, three shapes a kernel, every point checked against
# float64 (bench/torch_compare.py): core + transfer (issue 10's bar 4), then few_rows (bar 3).
# Run from the repository root on the GPU host.
set -u
O=${OUT:-out}
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >$O/env.txt
T0=$(date +%s)
for s in core,transfer few_rows; do
	f=tc_$(echo $s | tr , _)_bf16
	lim=400
	[ $s = few_rows ] && lim=$((560 - ($(date +%s) - T0)))
	timeout $lim python3 bench/torch_compare.py --rkc /tmp/rkc --suites $s --dtype bf16 --shapes-per-kernel 3 \
		--copy-gbps 3027 --workdir /tmp/tcw-$f --csv $O/$f.csv >$O/$f.txt 2>&1
	echo "$s rc $? at $(($(date +%s) - T0)) s"
done
rm -f $O/torch_compare.json
for f in tc_core_transfer_bf16 tc_few_rows_bf16; do
	echo "== $f: under 1.0x:"
	[ -f $O/$f.csv ] && awk -F, 'NR>1 && $9<1.0 {print $2,$3,$4"x"$5,$7,$8,$9,$12}' $O/$f.csv
	tail -4 $O/$f.txt
done
