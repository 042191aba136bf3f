#!/bin/bash
# Call 6 (95th session): what call 5 and call 4 left: the 17 generated kernels whose pick at
# 140x1000003 is a grid of bands walking more rows than SMs, run again with room (bf16 and fp32,
# checked against float64, bench/robust_gpu.sh), and the 8 lines of bench/sanitize_new.sh that
# call 4's limit did not reach. Run from the repository root on the GPU host.
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc-t.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name --format=csv,noheader >$OUT/env.txt
T0=$(date +%s)
G=$(for i in 11 14 17 2 36 38 4 41 51 52 55 57 62 64 7 73 75; do printf '.carry/gen/gen-%s.rk ' $i; done)
KERNELS="$G" SHAPES="140x1000003" DTYPES="bf16 f32" POLICIES=rkc MEMCHECK=0 JOBS=6 OUT=$OUT/gen \
	timeout 150 bash bench/robust_gpu.sh /tmp/rkc .carry/gen >/dev/null 2>&1
# robust_gpu.sh joins its logs into gen/robust.log when it finishes; stopped by the limit, it leaves
# a log a run, joined here (edited after the run, which finished and was counted over the empty join)
[ -d $OUT/gen/robust ] && cat $OUT/gen/robust/*.log >$OUT/gen-runs.log && rm -rf $OUT/gen/robust
echo "generated: $(cat $OUT/gen/robust.log $OUT/gen-runs.log 2>/dev/null | grep -c 'status=ok') ok," \
	"$(cat $OUT/gen/robust.log $OUT/gen-runs.log 2>/dev/null | grep -c 'status=FAIL') FAIL ($(($(date +%s) - T0)) s)"
P="rms_norm_backward.rk --shape 64x100003|9x262147|softmax.rk --shape 3x70001|cross_entropy_backward.rk --shape 5x50257 --dtype bf16 --config persistent=0,r_block=2048|layer_norm.rk --shape 1x1 |137x30011|11x60001|add_rms_bwd.rk --shape 7x70001"
OUT=$OUT timeout 200 bash bench/sanitize_new.sh /tmp/rkc "$P"
echo "total $(($(date +%s) - T0)) s"
