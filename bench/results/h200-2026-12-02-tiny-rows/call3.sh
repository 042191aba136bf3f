#!/bin/bash
# call 3: the pick against twice its threads a row (tprpts.py) at 170 short-row points; ncu of
# dynamic_quant fp32 1048576x32 and rms_norm fp32 65536x32, the seed and tune's best each
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-02-tiny-rows
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc
R=/tmp/rkc
i=0
for p in "dynamic_quant 1048576x32 persistent=1,r_block=32,m_block=32,num_warps=2,vec=4,min_ctas=25" \
         "dynamic_quant 1048576x32 persistent=1,r_block=32,m_block=32,num_warps=4,vec=4,min_ctas=16" \
         "rms_norm 65536x32 persistent=1,r_block=32,m_block=16,num_warps=1,vec=4,min_ctas=32" \
         "rms_norm 65536x32 persistent=1,r_block=32,m_block=32,num_warps=4,vec=4,min_ctas=12"; do
  set -- $p; i=$((i+1))
  timeout 100 ncu --set full --clock-control none -k regex:$1 -c 1 $R run testdata/kernels/$1.rk --dtype fp32 --shape $2 --config $3 > $O/ncu-$i-$1.txt 2>&1
  echo "ncu $i $1 $3: $(grep -E '^ +Duration' $O/ncu-$i-$1.txt | head -1)"
done
grep -E "Duration|L1/TEX Cache Throughput|Issue Slots Busy|DRAM Throughput|Mem Pipes Busy|LSU|Wavefronts|Achieved Occupancy" $O/ncu-*.txt | cut -c1-150 | head -60
LIMIT=440 COPY=4274 OUT=$O timeout 470 bash bench/ab.sh $R $D/call3-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $O/ab.txt > $O/ab-table.txt 2>&1
gzip -9 $O/ab.txt
tail -6 $O/ab-table.txt | cut -c1-150
