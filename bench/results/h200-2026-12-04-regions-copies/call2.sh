#!/bin/bash
# call 2: bench/regions.sh with the one-wave grid of equal shares (the fewest groups that take
# the row blocks in as many turns); long_sum 128x524288's stamped copy taken apart (PTX compiled
# on the build machine, ptx/: plain, the default sampling, every block stamped, every block with
# the timer reads made a constant, every block with the atomic max made a store), each timed
# twice, and their SASS; cross_entropy_backward and softmax bf16 4096x151936 at clusters of 2-8.
# Binary: .carry/cur.xz (edcccb9, the same code as call 1's; bench/regions.sh is the tree's).
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-04-regions-copies
R=/tmp/rkc-cur
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/cur.xz').read())" > $R && chmod +x $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $O/env.txt
us() { grep '^RESULT' | sed 's/.* us=\([0-9.]*\).*/\1/'; }
# long_sum's variants
for round in 1 2; do
	for v in plain default every1 notimer store; do
		a=(); [ $v != plain ] && a=(--regions)
		t=$(timeout 60 $R run testdata/kernels/long_sum.rk --ptx $D/ptx/$v.ptx --manifest $D/ptx/$v.json --shape 128x524288 --dtype bf16 --time --copy-gbps 4274 "${a[@]}" 2>&1 | tee -a $O/longsum-runs.log | us)
		echo "long_sum 128x524288 round $round $v $t"
	done
done > $O/longsum.txt 2>&1
mkdir -p $O/sass
for v in plain default every1 notimer store; do
	ptxas -arch=sm_90 -v $D/ptx/$v.ptx -o /tmp/$v.cubin > $O/sass/$v.ptxas.txt 2>&1 && cuobjdump -sass /tmp/$v.cubin > $O/sass/$v.sass 2>&1
done
# clusters at 4096x151936
for k in cross_entropy_backward softmax; do
	for c in policy 2 3 4 5 6 7 8; do
		a=(); [ $c != policy ] && a=(--config cluster=$c)
		l=$(timeout 90 $R run testdata/kernels/$k.rk --shape 4096x151936 --dtype bf16 --time --copy-gbps 4274 "${a[@]}" 2>&1 | grep '^RESULT\|rror')
		echo "$k 4096x151936 cluster=$c $(echo "$l" | grep -o 'us=[0-9.]* gbps=[0-9.]* copy_pct=[0-9.]*\|rror.*') $(echo "$l" | grep -o 'config=.*' | cut -c1-120)"
	done
done > $O/clusters.txt 2>&1
SUITES="core transfer long_rows few_rows training wide_bwd" LIMIT=60 OUT=$O/regions bench/regions.sh $R > $O/regions-stdout.txt 2>&1
tar czf $O/regions.tgz -C $O regions && rm -rf $O/regions/*.log $O/regions/*.json
tar czf $O/sass.tgz -C $O sass && rm -rf $O/sass
cat $O/longsum.txt $O/clusters.txt; tail -28 $O/regions-stdout.txt
