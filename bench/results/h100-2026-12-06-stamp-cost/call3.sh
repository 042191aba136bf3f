#!/bin/bash
# Call 3: the build of branch stamp-warp0 (thread 0 alone stamps a boundary, where lane 0 of every
# warp did): memcheck on stamped runs of two modes (a cluster, a cooperative grid with sums over
# rows), then bench/regions_overhead.sh at the kernels whose stamps cost
# the most on main (h100-2026-12-06-inproc-plain.md), every suite shape of 64-1500 MB.
# Run from the repository root on the GPU host with the build xz-compressed at .carry/rkc.xz.
set -u
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/rkc.xz >/tmp/rkc && chmod +x /tmp/rkc
R=/tmp/rkc
O=${OUT:-out}
T0=$(date +%s)
S=$O/memcheck3.txt; : >$S
while read -r k s e; do
	echo "### $k $s $e" >>$S
	timeout 100 compute-sanitizer --tool memcheck $R run testdata/kernels/$k.rk --dtype bf16 --shape $s --regions $e --check >>$S 2>&1
	echo "memcheck $k $s $e: ok=$(grep -c '^RESULT.*status=ok' $S) $(grep 'ERROR SUMMARY' $S | tail -1)"
done <<'PTS'
dynamic_quant 16x524288 --regions-every=1
layer_norm_backward 1024x4096 --regions-every=1
PTS
echo "memcheck: $(($(date +%s) - T0)) s"
KERNELS=${KERNELS:-dynamic_quant rms_norm_backward layer_norm_backward} \
	OUT=$O/ovh COPY=3027 LIMIT=${LIMIT:-300} bash bench/regions_overhead.sh $R >$O/ovh3-stdout.txt 2>&1
echo "total: $(($(date +%s) - T0)) s"
tar czf $O/ovh3.tgz -C $O ovh && rm -rf $O/ovh
tail -62 $O/ovh3-stdout.txt
