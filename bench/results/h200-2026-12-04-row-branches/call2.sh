#!/bin/bash
# Row branches, call 2: the old build's PTX against the new build's at the held-out kernels at
# 16384x1024 and a few more of the class, the new build against torch.compile at swiglu_bwd, ln_dx
# and masked_bce, and the new build's picks at odd shapes against float64 (rows padded,
# memcheck). The SASS pairs, sass.tgz, robust.tgz and the tc files did not come back (too many
# files under $OUT): call3.sh made the SASS again, and call2-tc_bf16.txt is the table as printed.
# Run from the repository root on the GPU host with .carry/new.xz and .carry/ab.
set -u
D=bench/results/h200-2026-12-04-row-branches
O=$OUT
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/new.xz > /tmp/rkc-new && chmod +x /tmp/rkc-new
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $O/env.txt
mkdir -p $O/sass
for p in masked_bce-bf16-16384x1024 jsd-bf16-37x1000003 swiglu_bwd-bf16-4096x4096 rms_norm-bf16-64x1000003; do
	for v in old new; do
		ptxas -arch=sm_90 .carry/ab/$p.$v.ptx -o /tmp/$p.$v.cubin && cuobjdump -sass /tmp/$p.$v.cubin > $O/sass/$p.$v.sass
	done
done
tar czf $O/sass.tgz -C $O sass && rm -rf $O/sass
LIMIT=230 COPY=4274 OUT=$O bash bench/ab.sh /tmp/rkc-new $D/call2-points.txt > $O/ab-stdout.txt 2>&1
python3 bench/ab_report.py $O/ab.txt > $O/ab-table.txt 2>&1
gzip -k $O/ab.txt
timeout 150 python3 bench/torch_compare.py --rkc /tmp/rkc-new --heldout bench/heldout --kernels swiglu_bwd,ln_dx,masked_bce --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_bf16.csv > $O/tc_bf16.txt 2>&1
rm -f $O/torch_compare.json
mkdir -p /tmp/empty
H="bench/heldout/swiglu_bwd.rk bench/heldout/ln_dx.rk bench/heldout/masked_bce.rk testdata/kernels/rms_norm.rk testdata/kernels/layer_norm.rk testdata/kernels/softmax.rk"
OUT=$O KERNELS="$H" POLICIES=rkc DTYPES="bf16 f32" SHAPES="1x1 3x7 5x1000 64x4097 1000x896 1001x1024 65537x96" PAD=16 JOBS=8 MEMCHECK=6 timeout 100 bash bench/robust_gpu.sh /tmp/rkc-new /tmp/empty > $O/robust-summary.txt 2>&1
gzip -9 $O/robust.log 2>/dev/null; tar czf $O/robust.tgz -C $O robust 2>/dev/null; rm -rf $O/robust
tail -8 $O/robust-summary.txt
tail -30 $O/tc_bf16.txt | cut -c1-130
sed 's/{[^}]*}//g' $O/ab-table.txt
