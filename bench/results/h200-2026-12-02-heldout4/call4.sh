#!/bin/bash
# call 4: grids of cluster bands offered where a colsum needs a row reduction and a whole row's
# partials pass a CTA's shared memory: the old pick forced against the new, memcheck at two new
# picks of odd shapes, and the two kernels of that class against torch.compile
set -u
O=${OUT:-out}
R=/tmp/rkc; gunzip -c .carry/rkc.gz > $R; chmod +x $R
OUT=$O/ab LIMIT=300 COPY=4274 bash bench/ab.sh $R .carry/s60/rule-points.txt > $O/ab-run.txt 2>&1
python3 bench/ab_report.py $O/ab/ab.txt > $O/ab-table.txt 2>&1
for p in "rms_colsum bf16 300x100003" "ln_bwd_recompute f16 300x77777"; do set -- $p
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $R run bench/heldout/$1.rk --dtype $2 --shape $3 --check >> $O/memcheck.txt 2>&1 || echo "EXIT $? $p" >> $O/memcheck.txt
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 $R run bench/heldout/$1.rk --dtype $2 --shape $3 --check >> $O/memcheck.txt 2>&1 || echo "EXIT $? $p" >> $O/memcheck.txt
done
timeout 150 python3 bench/torch_compare.py --rkc $R --heldout bench/heldout --kernels rms_colsum,ln_bwd_recompute \
	--dtype bf16 --shapes-per-kernel 7 --copy-gbps 4274 --workdir /tmp/tcw --csv $O/tc_bf16.csv > $O/tc_bf16.txt 2>&1
cat $O/ab-table.txt | cut -c1-90; grep -c "status=ok" $O/memcheck.txt; grep "ERROR SUMMARY\|RACECHECK SUMMARY\|EXIT" $O/memcheck.txt; tail -17 $O/tc_bf16.txt
