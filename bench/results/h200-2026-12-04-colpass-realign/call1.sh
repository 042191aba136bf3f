#!/bin/bash
# diagnostics: colsum kernels at odd vs aligned N
set -u
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/rkc0.xz > /tmp/rkc0 && chmod +x /tmp/rkc0
R=/tmp/rkc0
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/env.txt
for k in wb_grad colonly bias_grad rms_colsum ln_bwd_recompute; do
 for s in 8x1000003 8x1000000 64x50257 64x50256; do
  for d in bf16 f32; do
   r=$(timeout 60 $R run .carry/hd/$k.rk --shape $s --dtype $d --check --time --copy-gbps 4274 --inputs .carry/hd/inputs.json 2>&1 | tee -a $OUT/runs.log | grep '^RESULT')
   echo "$k $s $d $r"
  done
 done
done > $OUT/times.txt
for s in 8x1000003 8x1000000; do
 $R compile .carry/hd/wb_grad.rk --shape $s --dtype bf16 -o $OUT/wb_$s.ptx >/dev/null
 timeout 120 ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum -k regex:wb_grad -c 1 $R run .carry/hd/wb_grad.rk --shape $s --dtype bf16 --inputs .carry/hd/inputs.json > $OUT/ncu_wb_$s.txt 2>&1
done
timeout 280 python3 bench/torch_compare.py --rkc $R --heldout .carry/hd --dtype bf16 --shapes-per-kernel 2 --copy-gbps 4274 --csv $OUT/tc_bf16.csv > $OUT/tc_bf16.txt 2>&1
grep -h "ncu\|duration\|sectors\|requests\|bytes\|inst_exec\|warps_active" $OUT/ncu_wb_*.txt | head -30
sed 's/RESULT//' $OUT/times.txt | awk '{print $1,$2,$3,$0}' | cut -c1-200
