#!/bin/bash
# Call 5 (a fresh machine): the 17 generated kernels (.carry/gen, `sample --write`) whose pick at 140x1000003 is
# a grid of bands walking more rows than SMs, run and checked against float64 at bf16 and fp32
# (bench/robust_gpu.sh). Run from the repository root on the GPU host.
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc-t.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name --format=csv,noheader >$OUT/env.txt
KERNELS=".carry/gen/gen-11.rk .carry/gen/gen-14.rk .carry/gen/gen-17.rk .carry/gen/gen-2.rk .carry/gen/gen-36.rk .carry/gen/gen-38.rk .carry/gen/gen-4.rk .carry/gen/gen-41.rk .carry/gen/gen-51.rk .carry/gen/gen-52.rk .carry/gen/gen-55.rk .carry/gen/gen-57.rk .carry/gen/gen-62.rk .carry/gen/gen-64.rk .carry/gen/gen-7.rk .carry/gen/gen-73.rk .carry/gen/gen-75.rk " SHAPES="140x1000003" DTYPES="bf16 f32" POLICIES=rkc MEMCHECK=0 JOBS=4 OUT=$OUT timeout 45 bash bench/robust_gpu.sh /tmp/rkc .carry/gen
# added after the run: a run stopped by its limit leaves a log a kernel, more files than a call
# returns; join them into one
[ -d $OUT/robust ] && cat $OUT/robust/*.log >$OUT/robust-partial.log && rm -rf $OUT/robust
grep -c 'status=ok' $OUT/robust*.log
