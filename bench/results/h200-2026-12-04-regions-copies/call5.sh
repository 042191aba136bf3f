#!/bin/bash
# call 5: the stamp without a branch under compute-sanitizer memcheck: rkc run --check --regions
# (the default sampling and every block stamped) at odd shapes of each execution mode: split
# rows, cooperative rows over a cluster, rows kept in shared memory, persistent grids with sums
# over rows and the next block in flight, bands, the column pass, and policy picks.
# Binary: .carry/new.xz.
set -u
O=${OUT:-out}
R=/tmp/rkc-new
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/new.xz').read())" > $R && chmod +x $R
runs=(
	"testdata/kernels/sum.rk --shape 2x1048576 --dtype f32 --config persistent=0,r_block=4096,m_block=1,num_warps=8,vec=4,split=128"
	"testdata/kernels/kl_div.rk --shape 3x300007 --dtype bf16 --config persistent=0,r_block=2048,m_block=1,num_warps=8,vec=8,split=100"
	"testdata/kernels/layer_norm.rk --shape 3x1000003 --dtype f32 --config persistent=0,r_block=4096,m_block=1,num_warps=8,vec=4,split=1,cluster=37,coop=1"
	"testdata/kernels/softmax.rk --shape 2x50257 --dtype bf16 --config persistent=0,r_block=2048,m_block=1,num_warps=4,vec=8,split=1,smem=1,cluster=33,coop=1"
	"testdata/kernels/layer_norm_backward.rk --shape 1001x768 --dtype bf16 --config persistent=1,r_block=1024,m_block=4,num_warps=8,vec=8,grid=30"
	"testdata/kernels/rms_norm_backward.rk --shape 333x1000 --dtype f32 --config persistent=1,r_block=1024,m_block=2,num_warps=4,vec=4,grid=20,ahead=1"
	"testdata/kernels/cross_entropy_backward.rk --shape 5x50257 --dtype bf16 --config persistent=0,r_block=4096,m_block=1,num_warps=8,vec=8,cluster=4,smem=2"
	"testdata/kernels/layer_norm_backward.rk --shape 37x32768 --dtype bf16 --config persistent=0,r_block=4096,m_block=1,num_warps=16,vec=8,grid=16,cluster=4,smem=2,evict=1,min_ctas=2"
	"testdata/kernels/layer_norm_backward.rk --shape 37x30011 --dtype f32 --config persistent=1,r_block=4096,m_block=1,num_warps=4,vec=1,grid=24,cluster=8,coop=1,colpass=1"
	"bench/heldout/colonly.rk --shape 37x131072 --dtype bf16 --config persistent=0,r_block=32768,m_block=1,num_warps=32,vec=4,grid=132,colpass=1"
	"testdata/kernels/scaled_masked_softmax.rk --shape 19x512 --dtype bf16 --config persistent=1,r_block=512,m_block=1,num_warps=2,vec=4,grid=3,ahead=4"
	"testdata/kernels/rms_norm.rk --shape 41x256 --dtype bf16 --config persistent=1,r_block=256,m_block=4,num_warps=1,vec=2,grid=3,ahead=2"
	"testdata/kernels/welford.rk --shape 1x1000003 --dtype bf16 --config persistent=1,r_block=8192,m_block=1,num_warps=8,vec=8,split=1,cluster=132,coop=1"
	"testdata/kernels/rms_norm.rk --shape 65537x96 --dtype bf16"
	"testdata/kernels/long_sum.rk --shape 3x524287 --dtype bf16"
	"testdata/kernels/fused_linear_jsd.rk --shape 37x50257 --dtype bf16"
	"testdata/kernels/layer_norm_backward.rk --shape 777x4000 --dtype bf16"
	"testdata/kernels/rms_norm_backward.rk --shape 200x65537 --dtype bf16"
)
SECONDS=0
for r in "${runs[@]}"; do
	for e in default 1; do
		[ $SECONDS -gt 380 ] && echo "SKIPPED (time): $r every=$e" && continue
		a=(--regions); [ $e = 1 ] && a+=(--regions-every 1)
		l=$(timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $R run $r --check "${a[@]}" 2>&1)
		rc=$?
		echo "$l" >> $O/memcheck.log
		echo "rc=$rc every=$e $(echo "$l" | grep -o 'ERROR SUMMARY: [0-9]* errors' | head -1) $(echo "$l" | grep -o 'status=[a-z]*' | head -1) $(echo "$l" | grep -c '^REGIONS') :: $r"
	done
done | tee $O/memcheck-summary.txt
gzip -f $O/memcheck.log
