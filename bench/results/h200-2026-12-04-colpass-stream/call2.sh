#!/bin/bash
# call 2: call 1's four points left past its limit; torch.compile at the points that moved most
# (bench/torch_compare.py over a copy of bench/heldout whose shapes are those points); memcheck of
# the column pass on masked_pool's rows and of a one-warp column-pass grid at odd rows.
set -u
D=bench/results/h200-2026-12-04-colpass-stream
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/new.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/old.xz').read())" > /tmp/rkc-old && chmod +x /tmp/rkc-old
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
grep -v '^#' $D/call2-points.txt > /tmp/pts.txt
OLD_RKC=/tmp/rkc-old LIMIT=200 COPY=4274 OUT=$OUT bash bench/ab.sh /tmp/rkc /tmp/pts.txt > $OUT/ab-stdout.txt 2>&1
python3 bench/ab_report.py $OUT/ab.txt > $OUT/ab-table.txt 2>&1
gzip $OUT/ab.txt
rm -rf /tmp/hx && cp -r bench/heldout /tmp/hx
python3 - <<'PY'
import json
p='/tmp/hx/shapes.json'; j=json.load(open(p))
want={'masked_pool':[[1024,131072],[1024,262144],[512,131072],[1024,8192],[1000,100000]],
      'colonly':[[1024,131072],[700,120000]],
      'rms_colsum':[[4096,131072],[4096,65536]],
      'moe_aux':[[512,262144]]}
j['kernels']=[dict(e,shapes=want[e['kernel']]) for e in j['kernels'] if e['kernel'] in want]
json.dump(j,open(p,'w'),indent=1)
PY
timeout 150 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout /tmp/hx --kernels masked_pool,rms_colsum,moe_aux --dtype bf16 --shapes-per-kernel 5 --copy-gbps 4274 --workdir /tmp/tcw --csv $OUT/tc_bf16.csv > $OUT/tc_bf16.txt 2>&1
timeout 110 python3 bench/torch_compare.py --rkc /tmp/rkc --heldout /tmp/hx --kernels masked_pool,colonly --dtype f32 --shapes-per-kernel 5 --copy-gbps 4274 --workdir /tmp/tcw2 --csv $OUT/tc_f32.csv > $OUT/tc_f32.txt 2>&1
rm -f $OUT/torch_compare.json
{
for p in "masked_pool bf16 1001x131072 pick" "masked_pool fp32 37x65540 pick" "quant_err_cols bf16 3001x131072 persistent=0,r_block=1024,m_block=1,num_warps=1,vec=4,grid=2772,min_ctas=21,colpass=1"; do
  set -- $p
  cfg=(); [ "$4" != pick ] && cfg=(--config "$4")
  echo "== $1 $2 $3 $4"
  timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/rkc run bench/heldout/$1.rk --shape $3 --dtype $2 "${cfg[@]}" --check --inputs bench/heldout/inputs.json 2>&1 | grep -E "colpass|ERROR SUMMARY| ok|FAIL|error" | cut -c1-200
  echo "exit ${PIPESTATUS[0]}"
done
} > $OUT/memcheck.txt 2>&1
grep -E "^==|exit|SUMMARY| ok|FAIL" $OUT/memcheck.txt
sed 's/{[^}]*}//g' $OUT/ab-table.txt | tail -12
grep -v Warning $OUT/tc_bf16.txt | tail -22 | cut -c1-120
grep -v Warning $OUT/tc_f32.txt | tail -14 | cut -c1-120
