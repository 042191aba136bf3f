#!/bin/bash
# Session 29, call 2: the odd-warps dynamic grid fixed, under the sanitizers; rkc tune's cand o.
set -u
export R=.carry/rkc
export O=$OUT/s2
mkdir -p $O/san $O/tune
san() {
	i=$1 k=$2 s=$3 d=$4 c=$5
	f=$O/san/$i.log
	{
		echo "== $k $s $d $c"
		$R run testdata/kernels/$k.rk --shape $s --dtype $d --config $c --check 2>&1
		echo "rc=$?"
		for t in memcheck racecheck synccheck; do
			echo "-- $t"
			timeout 240 compute-sanitizer --tool $t --error-exitcode 9 $R run testdata/kernels/$k.rk --shape $s --dtype $d --config $c --check >$O/san/$i.$t.txt 2>&1
			echo "rc=$?"
			tail -2 $O/san/$i.$t.txt
		done
	} >$f
}
export -f san
t0=$(date +%s)
nl -w1 -s' ' .carry/odd_dyn.txt | xargs -P 5 -L 1 bash -c 'san "$@"' _
for f in $O/san/[0-9]*.log; do echo "$(head -1 $f) | $(grep -o 'rc=[0-9]*' $f | tr '\n' ' ')"; done >$O/san-summary.txt
echo "sanitizers: $(($(date +%s) - t0)) s"
while read k s d; do
	timeout 60 $R tune testdata/kernels/$k.rk --shape $s --dtype $d --top 1 --copy-gbps 4274 >$O/tune/$k.$s.$d.txt 2>&1
done <.carry/odd_tune.txt
echo "tune: $(($(date +%s) - t0)) s"
cat $O/san-summary.txt
grep -h TUNE $O/tune/*.txt | wc -l
cd $OUT && tar czf s2.tgz s2 && rm -rf s2
