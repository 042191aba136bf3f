#!/bin/bash
# Call 1: the torch.compile tables with the build carried at .carry/rkc-t.xz (the static release
# build of 16d3058, whose code main has since; .carry/rkc-wide2.xz), three shapes a kernel, every
# point checked against float64 (bench/torch_compare.py): core + transfer (issue 10's bar 4) and
# few_rows (bar 3), bf16 then f32, each started only while 130 s of the call's 560 are left.
# Run from the repository root on the GPU host.
set -u
O=${OUT:-out}
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc-t.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >$O/env.txt
T0=$(date +%s)
for run in core,transfer:bf16 few_rows:bf16 core,transfer:f32 few_rows:f32; do
	IFS=: read -r s d <<<"$run"
	left=$((560 - ($(date +%s) - T0)))
	[ $left -ge 130 ] || { echo "$s $d: not started, $left s left"; continue; }
	f=tc_$(echo $s | tr , _)_$d
	timeout $left python3 bench/torch_compare.py --rkc /tmp/rkc --suites $s --dtype $d --shapes-per-kernel 3 \
		--copy-gbps 3027 --workdir /tmp/tcw-$f --csv $O/$f.csv >$O/$f.txt 2>&1
	echo "$s $d rc $? at $(($(date +%s) - T0)) s"
done
rm -f $O/torch_compare.json
for f in $O/tc_*.txt; do
	echo "== $(basename $f .txt): under 1.0x:"
	c=${f%.txt}.csv
	[ -f $c ] && awk -F, 'NR>1 && $9<1.0 {print $2,$3,$4"x"$5,$7,$8,$9}' $c
	tail -3 $f
done
