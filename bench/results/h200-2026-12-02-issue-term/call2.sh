#!/bin/bash
# call 2: the final build (the issue term, sums over rows left out of it): old pick against new
# at the 84 moved points call 1 did not time as they are now and the 5 sm_90 golden picks that
# move; then torch.compile against the old build and the new on the tiny_rows suite (bf16) of
# the three kernels whose golden picks move
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-02-issue-term
gunzip -c .carry/rkc.gz > /tmp/rkc && chmod +x /tmp/rkc
gunzip -c .carry/rkc.head.gz > /tmp/rkc.head && chmod +x /tmp/rkc.head
LIMIT=250 COPY=4274 OUT=$O timeout 280 bash bench/ab.sh /tmp/rkc $D/call2-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $O/ab.txt > $O/ab-table.txt 2>&1
gzip -9 $O/ab.txt
for b in head new; do
	r=/tmp/rkc; [ $b = head ] && r=/tmp/rkc.head
	timeout 130 python3 bench/torch_compare.py --rkc $r --suites tiny_rows --kernels sum,welford,dynamic_quant --dtype bf16 --copy-gbps 4274 --workdir /tmp/tcw-$b --csv $O/tc-$b.csv > $O/tc-$b.txt 2>&1
done
rm -f $O/torch_compare.json
tail -4 $O/ab-table.txt | cut -c1-150; for b in head new; do tail -8 $O/tc-$b.txt | cut -c1-110; done
