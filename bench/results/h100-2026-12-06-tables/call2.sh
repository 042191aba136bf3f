#!/bin/bash
# Call 2 (the same warm machine, after call 1): rms_norm's three few_rows shapes at bf16 again (its
# first point, the first timing of call 1's few_rows process, ran 16.08 µs), then the core +
# transfer and few_rows tables at f32 (call 1 asked for them as fp32, which torch_compare.py
# refuses; call1.sh now says f32). Run from the repository root on the GPU host.
set -u
O=${OUT:-out}
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
T0=$(date +%s)
timeout 60 python3 bench/torch_compare.py --rkc /tmp/rkc --suites few_rows --kernels rms_norm --dtype bf16 \
	--shapes-per-kernel 3 --copy-gbps 3027 --workdir /tmp/tcw-r --csv $O/tc_few_rows_rms_norm_bf16_again.csv \
	>$O/tc_few_rows_rms_norm_bf16_again.txt 2>&1
echo "again rc $? $(($(date +%s) - T0)) s"
for s in core,transfer few_rows; do
	f=tc_$(echo $s | tr , _)_f32
	left=$((440 - ($(date +%s) - T0)))
	[ $left -ge 100 ] || { echo "$s skipped"; continue; }
	timeout $left python3 bench/torch_compare.py --rkc /tmp/rkc --suites $s --dtype f32 --shapes-per-kernel 3 \
		--copy-gbps 3027 --workdir /tmp/tcw-$f --csv $O/$f.csv >$O/$f.txt 2>&1
	echo "$s f32 rc $? $(($(date +%s) - T0)) s"
done
rm -f $O/torch_compare.json
