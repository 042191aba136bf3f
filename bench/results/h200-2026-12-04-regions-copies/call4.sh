#!/bin/bash
# call 4: the stamp without a branch at the core and transfer suites' shapes (bench/regions.sh's
# default SUITES): bench/regions.sh with the new binary (.carry/new.xz) without the one-wave runs,
# then at each point the old binary (.carry/cur.xz, edcccb9) at the default sampling, and both
# with every block stamped.
set -u
O=${OUT:-out}
for b in cur new; do python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/$b.xz').read())" > /tmp/rkc-$b && chmod +x /tmp/rkc-$b; done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $O/env.txt
ONEWAVE=0 LIMIT=60 OUT=$O/regions bench/regions.sh /tmp/rkc-new > $O/regions-stdout.txt 2>&1
us() { grep '^RESULT' | sed 's/.* us=\([0-9.]*\).*/\1/'; }
while read -r k s mb; do
	r() { timeout 60 $1 run testdata/kernels/$k.rk --shape $s --dtype bf16 --time --copy-gbps 4274 --regions "${@:2}" 2>&1 | us; }
	od=$(r /tmp/rkc-cur); oe=$(r /tmp/rkc-cur --regions-every 1); ne=$(r /tmp/rkc-new --regions-every 1)
	p1=$(us < $O/regions/$k.plain.log); nd=$(us < $O/regions/$k.regions.log)
	echo "$k $s plain=$p1 old_default=$od new_default=$nd old_every1=$oe new_every1=$ne"
done < $O/regions/plan.txt > $O/overhead.txt 2>&1
tar czf $O/regions.tgz -C $O regions && rm -rf $O/regions/*.log $O/regions/*.json
cat $O/overhead.txt; grep -A3 "^bar 2" $O/regions-stdout.txt
