#!/bin/bash
# call 1: --regions' overhead at long launches, at the default sampling (two copies of the row
# code) and with every row block stamped (--regions-every 1: one copy), against the plain kernel.
# bench/regions.sh at each kernel's largest suite shape up to 1500 MB, then a second plain run
# and an every-1 run at each of its points. Binary: .carry/cur.xz (edcccb9).
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-04-regions-copies
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/cur.xz').read())" > /tmp/rkc-cur && chmod +x /tmp/rkc-cur
SUITES="core transfer long_rows few_rows training wide_bwd" LIMIT=60 OUT=$O/regions bench/regions.sh /tmp/rkc-cur > $O/regions-stdout.txt 2>&1
us() { grep '^RESULT' | sed 's/.* us=\([0-9.]*\).*/\1/'; }
while read -r k s mb; do
	p2=$(timeout 60 /tmp/rkc-cur run testdata/kernels/$k.rk --shape $s --dtype bf16 --time --copy-gbps 4274 2>&1 | us)
	e1=$(timeout 60 /tmp/rkc-cur run testdata/kernels/$k.rk --shape $s --dtype bf16 --time --copy-gbps 4274 --regions --regions-every 1 2>&1 | us)
	p1=$(us < $O/regions/$k.plain.log); d=$(us < $O/regions/$k.regions.log)
	echo "$k $s plain=$p1 default=$d plain2=$p2 every1=$e1"
done < $O/regions/plan.txt > $O/overhead.txt 2>&1
awk '{for(i=3;i<=6;i++){split($i,a,"=");v[a[1]]=a[2]} pl=(v["plain"]+v["plain2"])/2; printf "%-24s %-14s plain %8.2f  default %+6.1f%%  every1 %+6.1f%%  (plain runs %+.1f%%)\n",$1,$2,pl,100*(v["default"]/pl-1),100*(v["every1"]/pl-1),100*(v["plain2"]/v["plain"]-1)}' $O/overhead.txt | tee $O/overhead-table.txt
tail -25 $O/regions/table.txt
