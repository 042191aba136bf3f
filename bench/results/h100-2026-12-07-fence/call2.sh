#!/bin/bash
# Call 2 (99th session): the fence-acq-rel build under compute-sanitizer at every handshake the
# change touches: bench/sanitize_new.sh's split rows, cooperative rows and bands and sums over
# rows (PATTERN below), then two dynamic persistent grids (the work counter's reset), each checked
# against float64 and under memcheck, racecheck and synccheck. Carry the branch's static release
# build as .carry/rkcf.xz.
set -u
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkcf.xz').read())" >/tmp/rkcf && chmod +x /tmp/rkcf
nvidia-smi --query-gpu=name,driver_version --format=csv >$OUT/env.txt 2>&1
head -2 $OUT/env.txt
OUT=$OUT/san timeout ${SAN_LIMIT:-300} bash bench/sanitize_new.sh /tmp/rkcf \
	"split=128|split=100|coop=1|colsum_only.rk --shape 3x1000|rms_norm_backward.rk --shape 20011x384" | tail -4
L=$OUT/dynamic.log
for r in "testdata/kernels/rms_norm.rk --shape 1001x768 --dtype bf16 --config persistent=1,r_block=1024,m_block=4,num_warps=8,vec=8,grid=30,dynamic=1" \
	"testdata/kernels/softmax.rk --shape 503x50257 --dtype f32 --config persistent=0,r_block=4096,m_block=1,num_warps=8,vec=4,grid=132,dynamic=1"; do
	/tmp/rkcf run $r --check >>$L 2>&1 || echo "EXIT $? check $r" >>$L
	for t in memcheck racecheck synccheck; do
		compute-sanitizer --tool $t --error-exitcode 9 /tmp/rkcf run $r >>$L 2>&1 || echo "EXIT $? $t $r" >>$L
	done
done
echo "dynamic: $(grep -c 'status=ok' $L) checks ok, $(grep -c 'ERROR SUMMARY: 0 errors\|RACECHECK SUMMARY: 0 hazards' $L) of 6 sanitizer runs clean, $(grep -c '^EXIT' $L) non-zero exits"
