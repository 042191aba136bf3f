#!/bin/bash
# Call 2: the branch streamed-bands' rule (streamed bands offered where the rows in flight and
# their outputs fit the L2) at 14 points of its class drawn at random (drawpts.py), main's pick
# forced (old) against the branch's (new), each point old, new (checked), new, old (bench/ab.sh);
# then the few_rows tables against torch.compile with the branch's build (bench/torch_compare.py),
# each started only while 130 s of the call's 560 are left. Run from the repository root on the
# GPU host, carrying the branch's static release build as .carry/rkc97sb.xz.
set -u
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc97sb.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
D=bench/results/h100-2026-12-07-streamed-bands
T0=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; /tmp/rkc --version; } >$OUT/env.txt 2>&1
OUT=$OUT LIMIT=260 COPY=3027 bash bench/ab.sh /tmp/rkc $D/drawn-points.txt >$OUT/ab-stdout.txt 2>&1
echo "ab: $(( $(date +%s) - T0 )) s" >>$OUT/env.txt
python3 bench/ab_report.py $OUT/ab.txt >$OUT/report.txt 2>&1
for d in f32 bf16; do
	left=$((560 - ($(date +%s) - T0)))
	[ $left -ge 130 ] || { echo "few_rows $d: not started, $left s left" >>$OUT/env.txt; continue; }
	timeout $left python3 bench/torch_compare.py --rkc /tmp/rkc --suites few_rows --dtype $d --shapes-per-kernel 3 \
		--copy-gbps 3027 --workdir /tmp/tcw-$d --csv $OUT/tc_few_rows_$d.csv >$OUT/tc_few_rows_$d.txt 2>&1
	echo "few_rows $d rc $? at $(($(date +%s) - T0)) s" >>$OUT/env.txt
done
cat $OUT/env.txt; cut -c1-110 $OUT/report.txt | tail -20
for d in f32 bf16; do
	c=$OUT/tc_few_rows_$d.csv
	[ -f $c ] && echo "== few_rows $d under 1.0x:" && awk -F, 'NR>1 && $9<1.0 {print $2,$3,$4"x"$5,$7,$8,$9}' $c && tail -3 $OUT/tc_few_rows_$d.txt
done
