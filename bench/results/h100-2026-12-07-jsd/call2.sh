#!/bin/bash
# Call 2 (95th session): the stash of g alone (assign_stash's ranked set: 4 bytes an element beside
# the kept rows, the apply pass computes q again, one exp, and no longer p, m and their exp and
# log): fused_linear_jsd at the transfer suite's three points, bf16 and fp32, the policy's pick
# against the pick with stash=1 over a cluster twice as large (so a CTA keeps no more bytes) and
# with stash=1 as is. Checked against float64 and timed; run from the repository root on the GPU
# host, carrying the build (main's code with stash-one.patch, static release) as
# .carry/rkc-stash.xz; everything goes to $OUT/stash.log.
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc-stash.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
L=$OUT/stash.log
T0=$(date +%s)
K=testdata/kernels/fused_linear_jsd.rk
one() { # dtype shape tag config
	echo "== $1 $2 $3 $4" >>$L
	timeout 60 /tmp/rkc run $K --dtype $1 --shape $2 ${4:+--config $4} --copy-gbps 3027 >>$L 2>&1
	echo "$1 $2 $3 $(grep RESULT $L | tail -1 | grep -o 'status=[a-zA-Z]*\|us=[0-9.]*\|copy_pct=[0-9.]*\|regs=[0-9]*' | tr '\n' ' ')"
}
one bf16 8192x128256 pick ""
one bf16 8192x128256 stash-c16 persistent=0,r_block=4096,m_block=1,num_warps=4,vec=8,evict=1,min_ctas=3,smem=2,cluster=16,stash=1
one bf16 8192x128256 stash-c8 persistent=0,r_block=4096,m_block=1,num_warps=4,vec=8,evict=1,min_ctas=1,smem=2,cluster=8,stash=1
one bf16 2048x256000 pick ""
one bf16 2048x256000 stash-c16 persistent=0,r_block=4096,m_block=1,num_warps=4,vec=8,evict=1,min_ctas=1,smem=2,cluster=16,stash=1
one bf16 4096x50257 pick ""
one bf16 4096x50257 stash-c4 persistent=0,r_block=4096,m_block=1,num_warps=16,vec=8,evict=1,min_ctas=2,smem=2,cluster=4,stash=1
one bf16 4096x50257 stash-c4w8 persistent=0,r_block=4096,m_block=1,num_warps=8,vec=8,evict=1,min_ctas=3,smem=2,cluster=4,stash=1
one f32 8192x128256 pick ""
one f32 8192x128256 stash-c16 persistent=0,r_block=2048,m_block=1,num_warps=4,vec=4,evict=1,min_ctas=2,smem=2,cluster=16,stash=1
one f32 2048x256000 pick ""
one f32 2048x256000 stash persistent=0,r_block=4096,m_block=1,num_warps=16,vec=4,evict=1,min_ctas=2,smem=2,cluster=33,grid=264,coop=1,stash=1
one f32 4096x50257 pick ""
one f32 4096x50257 stash-c8 persistent=0,r_block=4096,m_block=1,num_warps=8,vec=4,evict=1,min_ctas=2,smem=2,cluster=8,stash=1
echo "total $(($(date +%s) - T0)) s"
