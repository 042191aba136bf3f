#!/bin/bash
# call 6: bench/regions.sh with the one-wave runs at the core and transfer suites' shapes (the
# new build), and layer_norm_backward bf16 8192x8192 with the row code twice but only the first
# and last row blocks stamped (--regions-every 1048576), against plain and the default sampling.
set -u
O=${OUT:-out}
R=/tmp/rkc-new
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/new.xz').read())" > $R && chmod +x $R
us() { grep '^RESULT' | sed 's/.* us=\([0-9.]*\).*/\1/'; }
for round in 1 2; do
	for e in plain default 1048576; do
		a=(); [ $e != plain ] && a=(--regions); [ $e = 1048576 ] && a+=(--regions-every 1048576)
		echo "layer_norm_backward 8192x8192 $e $(timeout 60 $R run testdata/kernels/layer_norm_backward.rk --shape 8192x8192 --dtype bf16 --time --copy-gbps 4274 "${a[@]}" 2>&1 | us)"
	done
done > $O/lnb.txt 2>&1
LIMIT=60 OUT=$O/regions bench/regions.sh $R > $O/regions-stdout.txt 2>&1
tar czf $O/regions.tgz -C $O regions && rm -rf $O/regions/*.log $O/regions/*.json
cat $O/lnb.txt; tail -24 $O/regions-stdout.txt | head -14
