#!/bin/bash
# Call 3 (three device calls, PART=a, b, c): the build of branch stamp-warp0 (thread 0 alone stamps
# a boundary, where lane 0 of every warp did), xz-compressed at .carry/rkc.xz; PART=c also main's
# build before it at .carry/rkc-main.xz.
#   a: memcheck on stamped runs of two modes (a cluster with the row in shared memory, a grid with
#      sums over rows), then bench/regions_overhead.sh over every suite shape of 64-1500 MB of the
#      kernels cross_entropy_backward to gated_rmsnorm;
#   b: the same sweep over the other kernels;
#   c: the per-region tables of both builds at six shapes of six modes, every block stamped; then
#      the branch's stamps at rms_norm_backward 1024x28672 three more times, each stamping.
# Run from the repository root on the GPU host: PART=a bash .../call3.sh
set -u
unxz() { python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" "$1" >"$2" && chmod +x "$2"; }
unxz .carry/rkc.xz /tmp/rkc
R=/tmp/rkc
O=${OUT:-out}
T0=$(date +%s)
all=$(basename -s .rk testdata/kernels/*.rk)
case "${PART:?PART=a, b or c}" in
a)
	S=$O/memcheck3.txt
	: >$S
	while read -r k s; do
		echo "### $k $s" >>$S
		timeout 120 compute-sanitizer --tool memcheck $R run testdata/kernels/$k.rk --dtype bf16 \
			--shape $s --regions --regions-every 1 --check >>$S 2>&1
		echo "memcheck $k $s: $(grep 'ERROR SUMMARY' $S | tail -1)"
	done <<'PTS'
dynamic_quant 16x524288
layer_norm_backward 1024x4096
PTS
	echo "memcheck: checked ok $(grep -c '^RESULT.*status=ok' $S) of 2, $(($(date +%s) - T0)) s"
	K=$(echo "$all" | sed -n '1,/gated_rmsnorm/p')
	;;
b) K=$(echo "$all" | sed '1,/gated_rmsnorm/d') ;;
c)
	unxz .carry/rkc-main.xz /tmp/rkc-main
	for b in main branch; do
		r=$R
		[ $b = main ] && r=/tmp/rkc-main
		while read -r k s; do
			echo "### $b $k $s"
			timeout 60 $r run testdata/kernels/$k.rk --dtype bf16 --shape $s --regions --regions-every 1 --check 2>&1
		done >$O/regions-$b.txt <<'PTS'
layer_norm_backward 4096x4096
rms_norm_backward 1024x28672
dynamic_quant 512x262144
softmax 4096x4096
cross_entropy 4096x49152
welford 8x1048576
PTS
		echo "$b: checked ok $(grep -c '^RESULT.*status=ok' $O/regions-$b.txt) of 6"
	done
	for i in 1 2 3; do
		for e in "" "--regions-every 1"; do
			# shellcheck disable=SC2086
			$R run testdata/kernels/rms_norm_backward.rk --dtype bf16 --shape 1024x28672 --time \
				--copy-gbps 3027 --regions $e --check 2>&1 | grep -E "stamps|RESULT" | cut -c1-200
		done
	done >$O/rmsb.txt
	echo "total: $(($(date +%s) - T0)) s"
	exit 0
	;;
esac
KERNELS="$(echo $K)" OUT=$O/ovh COPY=3027 LIMIT=${LIMIT:-450} bash bench/regions_overhead.sh $R >$O/ovh-stdout.txt 2>&1
echo "total: $(($(date +%s) - T0)) s"
tar czf $O/ovh.tgz -C $O ovh && rm -rf $O/ovh
tail -20 $O/ovh-stdout.txt
