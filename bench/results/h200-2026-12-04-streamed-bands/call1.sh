#!/bin/bash
# call 1: streamed bands in place of the colsums' own pass (take_streamed_bands). At each point
# (points1.txt): the old pick (.carry/old.xz, 947eefd) and the new (.carry/new.xz) checked against
# float64 and timed, then rkc tune (new) timing the model's first 12 bands, helion2828's pick and
# the best candidate set aside; and the cooperative grid of clusters' message on the real driver.
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-04-streamed-bands
for b in old new; do python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/$b.xz').read())" > /tmp/rkc-$b && chmod +x /tmp/rkc-$b; done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $O/env.txt
SECONDS=0
# the refused cooperative grid of clusters (grid 1024) and the accepted one (grid 64)
for g in 1024 64; do
	timeout 60 /tmp/rkc-new run testdata/kernels/rms_norm_backward.rk --shape 64x4096 --dtype bf16 --check \
		--config persistent=0,r_block=1024,num_warps=4,vec=8,cluster=4,grid=$g,colpass=0 2>&1 | grep -v '^  '
done > $O/coop.log 2>&1
while read -r k s d; do
	[ $SECONDS -gt 540 ] && break
	for b in old new; do
		echo "== $b $k $s $d"
		timeout 60 /tmp/rkc-$b run $k --shape $s --dtype $d --check --time --copy-gbps 4274 2>&1 | grep -v '^  '
	done
	echo "== tune $k $s $d"
	timeout 90 /tmp/rkc-new tune $k --shape $s --dtype $d --top 12 --no-check --copy-gbps 4274 2>&1
done < $D/points1.txt > $O/runs.log 2>&1
grep -E '^== (old|new)|RESULT' $O/runs.log | paste - - | awk '{for(i=1;i<=NF;i++) if($i ~ /^us=|^copy_pct=|^status=/) x=x" "$i; print $2, $3, $5, $6, x; x=""}' > $O/picks.txt
cat $O/coop.log | grep -iE 'error|RESULT|cluster' | head; cat $O/picks.txt
