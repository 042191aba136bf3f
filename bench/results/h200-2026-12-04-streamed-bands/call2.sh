#!/bin/bash
# call 2: the final rule (take_streamed_bands with band_paired, ONCHIP_SLACK) at 24 points no rule
# was fitted on (points2.txt: 15 of the class, 9 at widths whose whole row's partials fit a CTA
# only at chunks of a few hundred columns): the old pick (.carry/old.xz, 947eefd) and the new
# (.carry/new.xz) each checked against float64 and timed; then rkc tune (new) at three of them.
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-04-streamed-bands
for b in old new; do python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/$b.xz').read())" > /tmp/rkc-$b && chmod +x /tmp/rkc-$b; done
SECONDS=0
while read -r k s d; do
	[ $SECONDS -gt 420 ] && break
	for b in old new; do
		echo "== $b $k $s $d"
		timeout 60 /tmp/rkc-$b run $k --shape $s --dtype $d --check --time --copy-gbps 4274 2>&1 | grep -v '^  '
	done
done < $D/points2.txt > $O/runs.log 2>&1
for p in "testdata/kernels/rms_norm_backward.rk 333x98304 fp32" "testdata/kernels/layer_norm_backward.rk 3000x60001 fp32" "bench/heldout/add_rms_bwd.rk 3000x98304 bf16"; do
	[ $SECONDS -gt 540 ] && break
	set -- $p
	echo "== tune $p"
	timeout 60 /tmp/rkc-new tune $1 --shape $2 --dtype $3 --top 8 --no-check --copy-gbps 4274 2>&1
done > $O/tune.log 2>&1
grep -E '^== (old|new)|RESULT' $O/runs.log | paste - - | awk '{for(i=1;i<=NF;i++) if($i ~ /^us=|^copy_pct=|^status=/) x=x" "$i; print $2, $3, $5, $6, x; x=""}' > $O/picks.txt
cat $O/picks.txt; grep -E '^seed' $O/tune.log
