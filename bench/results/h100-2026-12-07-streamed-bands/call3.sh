#!/bin/bash
# Call 3: where the streamed bands lost (cov_corr fp32 9x2759827, 1.85x in call 2): the old and
# new picks and variants of the band (one CTA an SM, a smaller chunk), at other rows and an
# aligned width, each timed once (rkc run --time, the first run checked). Run from the
# repository root on the GPU host, carrying the branch's static release build as .carry/rkc97sb.xz.
set -u
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc97sb.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
K=bench/heldout/cov_corr.rk
OLD=persistent=0,r_block=16384,m_block=1,num_warps=32,vec=4,split=1,evict=1,min_ctas=1,smem=0,cluster=8,grid=0,dynamic=0,ahead=0,coop=0,stash=0,steps=0,colpass=0
B=persistent=0,m_block=1,vec=4,split=1,evict=1,smem=0,coop=1,dynamic=0,ahead=0,stash=0,steps=0,colpass=0
for p in "9x2759827 pick" "9x2759827 $OLD" "9x2759827 $B,r_block=8192,num_warps=8,cluster=132,grid=264,min_ctas=2" \
	 "9x2759827 $B,r_block=16384,num_warps=16,cluster=66,grid=132,min_ctas=1" "9x2759827 $B,r_block=4096,num_warps=4,cluster=132,grid=264,min_ctas=2" \
	 "9x2759828 pick" "9x2759828 $OLD" "10x2759827 pick" "10x2759827 $OLD" "16x2759827 pick" "16x2759827 $OLD" \
	 "24x2759827 pick" "24x2759827 $OLD" "9x2759827 pick"; do
	set -- $p
	c=(); [ "$2" != pick ] && c=(--config "$2")
	chk=(); [ "$2" != pick ] || chk=(--check)
	r=$(timeout 60 /tmp/rkc run $K --dtype fp32 --shape $1 "${c[@]}" --time "${chk[@]}" --copy-gbps 3027 2>&1)
	echo "$1 ${2:0:60}: $(printf '%s\n' "$r" | grep -o 'status=[a-z]*' | head -1) $(printf '%s\n' "$r" | grep -o ' us=[0-9.]* .*local=[0-9]*' | head -1) $(printf '%s\n' "$r" | grep -o 'config=[^ ]*' | head -1 | cut -c1-200)" | tee -a $OUT/probe.txt
done
