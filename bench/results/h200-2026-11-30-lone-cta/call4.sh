#!/bin/bash
# call 4: where sum fp32 1x4194304's 10 us go: ncu of rkc's kernel and of torch.compile's, SASS of the combine
R=.carry/rkc
cd /tmp && $OLDPWD/$R compile $OLDPWD/testdata/kernels/sum.rk --shape 1x4194304 --dtype f32 -o sum.ptx && ptxas -arch=sm_90 sum.ptx -o sum.cubin && cuobjdump -sass sum.cubin > $OUT/sum.sass; cd $OLDPWD
M="gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,sm__cycles_active.avg,smsp__warps_launched.sum,launch__grid_size,launch__block_size"
for d in f32 bf16; do
ncu --metrics $M -k regex:sum --launch-skip 3 --launch-count 1 $R run testdata/kernels/sum.rk --shape 1x4194304 --dtype $d --time > $OUT/ncu-rkc-$d.txt 2>&1
done
cat > /tmp/tsum.py <<'P'
import torch, sys
d = {'f32': torch.float32, 'bf16': torch.bfloat16}[sys.argv[1]]
x = torch.randn(1, 4194304, device='cuda', dtype=d)
f = torch.compile(lambda x: x.float().sum(-1))
for _ in range(5): y = f(x)
torch.cuda.synchronize()
P
for d in f32 bf16; do
python3 /tmp/tsum.py $d > /dev/null 2>&1
ncu --metrics $M --launch-skip 0 --launch-count 20 python3 /tmp/tsum.py $d > $OUT/ncu-torch-$d.txt 2>&1
done
for f in $OUT/ncu-*.txt; do echo "== $f"; grep -E "^  [a-z_]+.*\(|gpu__time_duration|launch__grid_size|launch__block_size|dram__throughput|dram__bytes" $f | tail -40; done
