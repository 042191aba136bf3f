#!/bin/bash
# Session 29, call 1: sanitizers on odd warp counts; rkc tune at small shapes under 1.0x.
set -u
export R=.carry/rkc
export O=$OUT/s1
mkdir -p $O/san $O/tune
nvidia-smi -L | sed 's/ (UUID.*)//' > $O/smi.txt
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
			tail -3 $O/san/$i.$t.txt
		done
	} >$f
}
export -f san
t0=$(date +%s)
nl -w1 -s' ' .carry/odd_pts.txt | xargs -P 6 -L 1 bash -c 'san "$@"' _
echo "sanitizers: $(($(date +%s) - t0)) s" | tee $O/times.txt
# the policy's odd picks at full shapes: checked, memcheck
for p in "layer_norm 2048x7168 bf16" "gelu_tanh_gated 4095x21504 bf16" "fused_add_layernorm 4096x5120 bf16"; do
	set -- $p
	{
		$R explain testdata/kernels/$1.rk --shape $2 --dtype $3 | grep -E '^  (persistent|looped)'
		$R run testdata/kernels/$1.rk --shape $2 --dtype $3 --check 2>&1 | tail -3
		timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $R run testdata/kernels/$1.rk --shape $2 --dtype $3 --check 2>&1 | tail -3
		echo "rc=$?"
	} >$O/san/pick.$1.log 2>&1
done
echo "picks: $(($(date +%s) - t0)) s" | tee -a $O/times.txt
for p in "gated_rmsnorm 8192x768" "fused_add_layernorm 8192x768" "rms_norm 65536x32" "layer_norm 100003x256" "rms_norm 262144x200"; do
	set -- $p
	timeout 150 $R tune testdata/kernels/$1.rk --shape $2 --dtype bf16 --top 16 --copy-gbps 4274 >$O/tune/$1.$2.txt 2>&1
	echo "tune $1 $2: $(($(date +%s) - t0)) s" | tee -a $O/times.txt
done
# summary
for f in $O/san/[0-9]*.log; do
	h=$(head -1 $f)
	rcs=$(grep -o 'rc=[0-9]*' $f | tr '\n' ' ')
	echo "$h | $rcs"
done > $O/san-summary.txt
grep -c 'rc=0 rc=0 rc=0 rc=0' $O/san-summary.txt
grep -v 'rc=0 rc=0 rc=0 rc=0' $O/san-summary.txt
cat $O/san/pick.*.log
for f in $O/tune/*.txt; do echo "## $f"; head -8 $f; grep TUNE $f; done
