#!/bin/bash
# call 6: paired streamed bands where the colsum partials are heavy too (.carry/heavy.xz: the
# final rule without band_partials_light) against the final rule's pick (.carry/new.xz, the own
# pass there) at 11 points call 5 did not time (points6.txt), each checked against float64 and
# timed.
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-04-streamed-bands
for b in new heavy; do python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/$b.xz').read())" > /tmp/rkc-$b && chmod +x /tmp/rkc-$b; done
SECONDS=0
while read -r k s d; do
	[ $SECONDS -gt 100 ] && break
	for b in new heavy; do
		echo "== $b $k $s $d"
		timeout 60 /tmp/rkc-$b run $k --shape $s --dtype $d --check --time --copy-gbps 4274 2>&1 | grep -v '^  '
	done
done < $D/points6.txt > $O/runs.log 2>&1
grep -E '^== (new|heavy)|RESULT' $O/runs.log | paste - - | awk '{for(i=1;i<=NF;i++) if($i ~ /^us=|^copy_pct=|^status=/) x=x" "$i; print $2, $3, $5, $6, x; x=""}' > $O/picks.txt
cat $O/picks.txt
