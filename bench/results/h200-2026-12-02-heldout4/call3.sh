#!/bin/bash
# call 3: rms_colsum (a sum over rows that needs a row reduction) at wide rows: the pick (partials
# in workspace slots) against a grid of cluster bands (partials of a segment in shared memory)
set -u
O=${OUT:-out}
R=/tmp/rkc; gunzip -c .carry/rkc.gz > $R; chmod +x $R
OUT=$O/ab LIMIT=300 COPY=4274 bash bench/ab.sh $R .carry/s60/bands.txt > $O/ab-run.txt 2>&1
python3 bench/ab_report.py $O/ab/ab.txt > $O/ab-table.txt 2>&1
P=.carry/s60/ab/masked_head-r1024
$R run tests/codegen/masked_head.rk --dtype bf16 --shape 64x200000 --ptx $P.old.ptx --manifest $P.old.json --check > $O/masked_head_old.txt 2>&1
$R run tests/codegen/masked_head.rk --dtype bf16 --shape 64x200000 --config r_block=1024,num_warps=4,persistent=0 --check >> $O/masked_head_old.txt 2>&1
grep RESULT $O/masked_head_old.txt | cut -c1-150
cat $O/ab-table.txt
