#!/bin/bash
# call 3: the 16 batch-invariant sm_90 golden picks the issue term moves, old pick against new;
# then torch.compile against the old build and the new at the held-out kernels of the short-row
# losses the earlier sessions left (bf16)
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-02-issue-term
gunzip -c .carry/rkc.gz > /tmp/rkc && chmod +x /tmp/rkc
gunzip -c .carry/rkc.head.gz > /tmp/rkc.head && chmod +x /tmp/rkc.head
LIMIT=120 COPY=4274 OUT=$O timeout 150 bash bench/ab.sh /tmp/rkc $D/call3-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $O/ab.txt > $O/ab-table.txt 2>&1
gzip -9 $O/ab.txt
for b in head new; do
	r=/tmp/rkc; [ $b = head ] && r=/tmp/rkc.head
	timeout 170 python3 bench/torch_compare.py --rkc $r --heldout bench/heldout --kernels dequant,i8_layernorm,fp8_in_rms,softcap_ce,focal_ce,entropy --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw-$b --csv $O/tc-$b.csv > $O/tc-$b.txt 2>&1
done
rm -f $O/torch_compare.json
tail -3 $O/ab-table.txt | cut -c1-150; for b in head new; do tail -3 $O/tc-$b.txt | cut -c1-150; done
