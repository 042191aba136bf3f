#!/bin/bash
# call 1: colsums placed where their operand dies, before that value's stores (analysis/order.c),
# against HEAD (e2ff86e): the 33 held-out points whose PTX changes (bias_gelu_back, moe_aux,
# ce_bias_grad; configs unchanged), old and new PTX carried; memcheck of new PTX at rows past M;
# then the new build against torch.compile on the three kernels, bf16, their seven shapes.
set -u
D=bench/results/h200-2026-12-04-colsum-order
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/order.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
cp $D/call1-points.txt /tmp/pts.txt
LIMIT=200 COPY=4274 OUT=$OUT bash bench/ab.sh /tmp/rkc /tmp/pts.txt > $OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt > $OUT/ab-table.txt 2>&1
gzip $OUT/ab.txt
{
for p in moe_aux-bf16-4099x3001 moe_aux-fp32-4099x3001 ce_bias_grad-bf16-4099x3001 bias_gelu_back-fp32-4099x3001 moe_aux-bf16-4096x4096; do
  k=${p%%-*}; rest=${p#*-}; dt=${rest%%-*}; sh=${rest#*-}
  echo "== $p"
  timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/rkc run bench/heldout/$k.rk --shape $sh --dtype $dt --check --ptx .carry/ab1/$p.new.ptx --manifest .carry/ab1/$p.new.json --inputs bench/heldout/inputs.json 2>&1 | tail -4
  echo "exit ${PIPESTATUS[0]}"
done
} > $OUT/memcheck.txt 2>&1
timeout 150 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels moe_aux,ce_bias_grad,bias_gelu_back --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $OUT/tc_bf16.csv > $OUT/tc_bf16.txt 2>&1
rm -f $OUT/torch_compare.json
grep -E "^==|exit|ERROR SUMMARY|FAIL|ok" $OUT/memcheck.txt | tr '\n' ' '; echo
sed 's/{[^}]*}//g' $OUT/ab-table.txt | tail -40
tail -25 $OUT/tc_bf16.txt | cut -c1-120
