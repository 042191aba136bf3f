#!/bin/bash
# call 4: the final build (83c0688: colsum order, the spill guard on persistent rows) against
# torch.compile on the held-out kernels the two changes move, their seven shapes: bf16, and fp32
# for the three whose fp32 picks moved.
set -u
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/final.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
timeout 280 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels moe_aux,quant_err_cols,logcosh,swiglu_bwd,ln_of_rms,ln_dx,keep_mask,masked_pool --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $OUT/tc_bf16.csv > $OUT/tc_bf16.txt 2>&1
timeout 150 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels quant_err_cols,masked_pool,keep_mask --dtype f32 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw2 --csv $OUT/tc_f32.csv > $OUT/tc_f32.txt 2>&1
rm -f $OUT/torch_compare.json
tail -62 $OUT/tc_bf16.txt | cut -c1-110
tail -25 $OUT/tc_f32.txt | cut -c1-110
