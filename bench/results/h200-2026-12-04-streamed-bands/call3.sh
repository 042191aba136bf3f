#!/bin/bash
# call 3 (.carry/new.xz, the final rule): the held-out add_rms_bwd at odd shapes in every dtype
# (bench/robust_gpu.sh, padded rows, memcheck) and against torch.compile (bf16, 7 shapes; fp32, 3);
# the wide_bwd suite's norm backward kernels against torch.compile (bf16 and fp32); then the new
# lines of bench/sanitize_new.sh (streamed bands) under memcheck, racecheck and synccheck
set -u
O=${OUT:-out}
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/new.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
mkdir -p /tmp/empty
OUT=$O KERNELS=bench/heldout/add_rms_bwd.rk POLICIES=rkc PAD=16 JOBS=8 MEMCHECK=1 timeout 150 bash bench/robust_gpu.sh /tmp/rkc /tmp/empty > $O/robust-summary.txt 2>&1
gzip -9 $O/robust.log 2>/dev/null; tar czf $O/robust.tgz -C $O robust 2>/dev/null; rm -rf $O/robust
timeout 100 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels add_rms_bwd --dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_heldout_bf16.csv > $O/tc_heldout_bf16.txt 2>&1
timeout 60 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout bench/heldout --kernels add_rms_bwd --dtype f32 --shapes-per-kernel 3 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_heldout_f32.csv > $O/tc_heldout_f32.txt 2>&1
for d in bf16 f32; do
	timeout 110 python3 bench/torch_compare.py --rkc /tmp/rkc --suites wide_bwd --kernels rms_norm_backward,layer_norm_backward --dtype $d --shapes-per-kernel 6 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_wide_$d.csv > $O/tc_wide_$d.txt 2>&1
done
rm -f $O/torch_compare.json
P='137x30011|11x60001|7x70001'
OUT=$O timeout 200 bash bench/sanitize_new.sh /tmp/rkc "$P" > $O/sanitize-summary.txt 2>&1
gzip -9 $O/sanitize-new.log
tail -5 $O/robust-summary.txt; tail -14 $O/tc_heldout_bf16.txt | cut -c1-140; tail -8 $O/tc_heldout_f32.txt | cut -c1-140
tail -18 $O/tc_wide_bf16.txt | cut -c1-140; tail -18 $O/tc_wide_f32.txt | cut -c1-140; cat $O/sanitize-summary.txt
