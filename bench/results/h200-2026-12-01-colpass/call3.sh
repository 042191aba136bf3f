#!/bin/bash
# Call 3: the policy with the column pass (colpass_offered, the model's ranking, colpass_lanes):
# the sanitizers on the column pass again, the old build's pick (PTX carried in .carry/ab)
# against the new build's at the points that moved, and few_rows_bwd against torch.compile.
set -u
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
OUT=$OUT/san bash bench/sanitize_new.sh $R "colpass=1" > "$OUT/call3-sanitize.txt" 2>&1
tail -1 "$OUT/call3-sanitize.txt"
LIMIT=300 COPY=4274 OUT=$OUT/ab bash bench/ab.sh $R .carry/pts3.txt > /dev/null 2>&1
python3 bench/ab_report.py $OUT/ab/ab.txt > "$OUT/call3-ab-table.txt" 2>&1
cut -c1-90 "$OUT/call3-ab-table.txt"
gzip -c $OUT/ab/ab.txt > $OUT/call3-ab.txt.gz
for d in bf16 f32; do
timeout 130 python3 bench/torch_compare.py --rkc $R --suites few_rows_bwd --dtype $d --shapes-per-kernel 6 --copy-gbps 4274 --workdir /tmp/tcw --csv $OUT/call3-tc_few_bwd_$d.csv > $OUT/call3-tc_few_bwd_$d.txt 2>&1; echo "tc $d: $?"
tail -1 $OUT/call3-tc_few_bwd_$d.txt | cut -c1-200
done
