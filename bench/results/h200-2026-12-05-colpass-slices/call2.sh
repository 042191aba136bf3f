#!/bin/bash
# call 2: where the column pass at 3 CTAs an SM loses (rms_colsum, bias_grad): regions, grid sweeps, SASS
set -u
xz -dc .carry/cur.xz > /tmp/rkc && chmod +x /tmp/rkc
R=/tmp/rkc; H=bench/heldout; C="--copy-gbps 4274"
L=$OUT/log.txt
run() { echo "### $*" >> $L; timeout 60 $R run "$@" $C >> $L 2>&1; grep '^RESULT' $L | tail -1 | sed 's/worst_rel.*us=/us=/; s/gbps=.*regs=/regs=/; s/config=.*"grid":\([0-9]*\).*/grid=\1/' ; echo "   <- $*"; }
{
for c in "" "grid=264,min_ctas=2" "grid=132,min_ctas=1" "grid=528,min_ctas=4" "r_block=2048,m_block=16,grid=256,min_ctas=2" "r_block=2048,m_block=16,grid=396,min_ctas=3" "grid=396,min_ctas=2" "grid=264,min_ctas=3"; do
  run $H/rms_colsum.rk --dtype bf16 --shape 4096x131072 --time ${c:+--config $c}
done
for c in "" "grid=264,min_ctas=2"; do
  run $H/rms_colsum.rk --dtype bf16 --shape 4096x131072 --regions ${c:+--config $c}
  sed -n '/region/,$p' $L | tail -25
done
for g in 128 147 171 205 256 342 396 512; do
  run $H/bias_grad.rk --dtype bf16 --shape 2048x4096 --time --config grid=$g,min_ctas=3
done
for g in 264 396; do for k in 2 3; do
  run $H/bias_grad.rk --dtype bf16 --shape 2048x4096 --time --config grid=$g,min_ctas=$k
done; done
} 2>&1 | tee $OUT/summary.txt
mkdir -p /tmp/s; cd /tmp/s
for c in "" "grid=264,min_ctas=2"; do
  n=p${c:+_g264}
  $R compile $OLDPWD/$H/rms_colsum.rk --shape 4096x131072 --dtype bf16 ${c:+--config $c} -o $n.ptx
  ptxas -arch=sm_90 $n.ptx -o $n.cubin && cuobjdump -sass $n.cubin > $n.sass
done
tar czf $OUT/sass.tgz *.sass *.ptx
