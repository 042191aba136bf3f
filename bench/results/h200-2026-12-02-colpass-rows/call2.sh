#!/bin/bash
# call 2: the column pass where a colsum needs a row reduction (colpass=1 reading the row values
# the rows wrote, after a wait for the grid), forced over the picks of rms_colsum,
# ln_bwd_recompute and moe_aux (checked); memcheck and racecheck on two small forced configs
set -u
O=${OUT:-out}
gunzip -c .carry/rkc.gz > /tmp/rkc && chmod +x /tmp/rkc
C1=persistent=0,r_block=1024,m_block=1,num_warps=8,vec=4,evict=1,smem=0,cluster=1,coop=0,grid=6,colpass=1
C2=persistent=1,r_block=2048,m_block=2,num_warps=8,vec=4,smem=0,grid=5,ahead=1,colpass=1
C3=persistent=0,r_block=1024,m_block=1,num_warps=8,vec=4,smem=0,cluster=4,coop=1,grid=8,colpass=1
for t in memcheck racecheck; do
 timeout 100 compute-sanitizer --tool $t --error-exitcode 9 /tmp/rkc run bench/heldout/rms_colsum.rk --shape 37x10000 --dtype bf16 --config $C1 --check > $O/san-$t-1.txt 2>&1; echo "$t 1 exit $?" >> $O/san.txt
 timeout 100 compute-sanitizer --tool $t --error-exitcode 9 /tmp/rkc run bench/heldout/moe_aux.rk --shape 45x2048 --dtype f32 --config $C2 --check > $O/san-$t-2.txt 2>&1; echo "$t 2 exit $?" >> $O/san.txt
 timeout 100 compute-sanitizer --tool $t --error-exitcode 9 /tmp/rkc run bench/heldout/ln_bwd_recompute.rk --shape 3x30000 --dtype bf16 --config $C3 --check > $O/san-$t-3.txt 2>&1; echo "$t 3 exit $?" >> $O/san.txt
done
OUT=$O/ab LIMIT=330 COPY=4274 bash bench/ab.sh /tmp/rkc .carry/s61/cp-pts.txt > $O/ab-run.txt 2>&1
python3 bench/ab_report.py $O/ab/ab.txt > $O/ab-table.txt 2>&1
cat $O/san.txt; grep -h "status\|ERROR SUMMARY\|FAIL" $O/san-*.txt | sort | uniq -c | head; cat $O/ab-table.txt
