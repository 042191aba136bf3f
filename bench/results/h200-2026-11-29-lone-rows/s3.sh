#!/bin/bash
# Session 29, call 3: lone 8-warp persistent rows (the policy's picks at the edge of what a CTA
# holds) against persistent cluster rows and kept rows, forced; rkc tune at each point.
set -u
R=.carry/rkc
O=$OUT/s3
mkdir -p $O/tune
t0=$(date +%s)
while read k s d; do
	timeout 90 $R tune testdata/kernels/$k.rk --shape $s --dtype $d --top 2 --copy-gbps 4274 >$O/tune/$k.$s.$d.txt 2>&1
done <.carry/lone_pts.txt
echo "tune: $(($(date +%s) - t0)) s"
while read k s d c; do
	echo "== $k $s $d $c"
	timeout 60 $R run testdata/kernels/$k.rk --shape $s --dtype $d --config $c --check --time --copy-gbps 4274 2>&1 | grep -E 'RESULT|error|FAIL'
done <.carry/lone_forced.txt >$O/forced.txt 2>&1
echo "forced: $(($(date +%s) - t0)) s"
grep -h TUNE $O/tune/*.txt | sed 's/best_config.*//'
grep -c 'status=ok' $O/forced.txt
cd $OUT && tar czf s3.tgz s3 && rm -rf s3
