#!/bin/bash
# Call 2 (ran on an H200), the build of main bdc0799 (.carry/rkc-main.xz). Every run checked
# against float64.
#  1. where the bands might go next, main's pick (old) against a forced band (new;
#     bands-more-points.txt): streamed bands (smem=0, two bands of 132 CTAs) and a lone band kept
#     on chip (264 CTAs, two an SM) at the 4194304-column fp32 rows the rule leaves out, bands kept
#     on chip at 150 to 300 rows of 524288 to 1000003 columns.
#  2. the few_rows torch.compile table (issue 10's bar 3), three shapes a kernel, bf16 then f32,
#     each started only while 120 s of the call's 570 are left.
# Run from the repository root on the GPU host.
set -u
O=${OUT:-out}
T0=$(date +%s)
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc-main.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >$O/env.txt
D=bench/results/h200-2026-12-07-wide-bands
LIMIT=180 COPY=3027 OUT=$O/more timeout 220 bash bench/ab.sh /tmp/rkc $D/bands-more-points.txt >$O/more.log 2>&1
python3 bench/ab_report.py $O/more/ab.txt >$O/more-table.txt 2>&1
gzip -9 $O/more/ab.txt
echo "bands-more at $(($(date +%s) - T0)) s"
for d in bf16 f32; do
	left=$((570 - ($(date +%s) - T0)))
	[ $left -ge 120 ] || { echo "few_rows $d: not started, $left s left"; continue; }
	timeout $left python3 bench/torch_compare.py --rkc /tmp/rkc --suites few_rows --dtype $d --shapes-per-kernel 3 \
		--copy-gbps 3027 --workdir /tmp/tcw-$d --csv $O/tc_few_rows_$d.csv >$O/tc_few_rows_$d.txt 2>&1
	echo "few_rows $d rc $? at $(($(date +%s) - T0)) s"
done
rm -f $O/torch_compare.json
cut -c1-84 $O/more-table.txt | tail -24
for f in $O/tc_*.txt; do
	echo "== $(basename $f .txt): under 1.0x:"
	c=${f%.txt}.csv
	[ -f $c ] && awk -F, 'NR>1 && $9<1.0 {print $2,$3,$4"x"$5,$7,$8,$9,$12}' $c
	tail -4 $f
done
