#!/bin/bash
# call 4: drop_lone_clusters: old pick against new at 18 points (ab.sh), the new picks checked
# against float64 at three shapes, and fused_linear_jsd / scaled_masked_softmax fp32 against torch.compile
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
for p in "fused_linear_jsd 256x262144" "scaled_masked_softmax 256x256000" "softmax 256x500000"; do
  set -- $p; timeout 60 $R run testdata/kernels/$1.rk --shape $2 --dtype f32 --check --copy-gbps 4274 2>&1 | tail -4 >> $OUT/checks.txt
done
LIMIT=300 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts4.txt > $OUT/ab-run.log 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > $OUT/ab-table.txt 2>&1
timeout 170 python3 bench/torch_compare.py --rkc $R --kernels fused_linear_jsd,scaled_masked_softmax --dtype f32 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --json $OUT/tc.json --csv $OUT/tc.csv > $OUT/tc.txt 2>&1
grep -E "RESULT|FAIL|error" $OUT/checks.txt | cut -c1-200
cat $OUT/ab-table.txt | tail -30
tail -25 $OUT/tc.txt
