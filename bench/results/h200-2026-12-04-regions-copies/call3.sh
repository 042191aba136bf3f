#!/bin/bash
# call 3: the stamp without a branch (a predicated red.global.max in inline PTX, which LLVM may
# move pure code and loads across) at the 22 long launches: bench/regions.sh with the new
# binary (.carry/new.xz), then every block stamped at each point, against call 2's old runs.
set -u
O=${OUT:-out}
R=/tmp/rkc-new
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/new.xz').read())" > $R && chmod +x $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $O/env.txt
SUITES="core transfer long_rows few_rows training wide_bwd" LIMIT=60 OUT=$O/regions bench/regions.sh $R > $O/regions-stdout.txt 2>&1
us() { grep '^RESULT' | sed 's/.* us=\([0-9.]*\).*/\1/'; }
while read -r k s mb; do
	e1=$(timeout 60 $R run testdata/kernels/$k.rk --shape $s --dtype bf16 --time --copy-gbps 4274 --regions --regions-every 1 2>&1 | us)
	p1=$(us < $O/regions/$k.plain.log); d=$(us < $O/regions/$k.regions.log)
	echo "$k $s plain=$p1 default=$d every1=$e1"
done < $O/regions/plan.txt > $O/overhead.txt 2>&1
tar czf $O/regions.tgz -C $O regions && rm -rf $O/regions/*.log $O/regions/*.json
cat $O/overhead.txt; tail -24 $O/regions-stdout.txt
