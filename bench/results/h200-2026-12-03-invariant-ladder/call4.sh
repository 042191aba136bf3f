#!/bin/bash
# call 4: the final rule (no cooperative rows among the orders): memcheck at one odd few-row pick
# that moved, then the old build's invariant pick against the final build's at the moved sm_90
# golden points calls 1-2 did not time with the same pick (few rows first)
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-03-invariant-ladder
for b in rkc rkc.head; do python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
r=$(timeout 40 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/rkc run testdata/kernels/rms_norm_backward.rk --dtype fp32 --shape 5x262147 --check --batch-invariant 2>&1)
echo "rc=$? memcheck rms_norm_backward fp32 5x262147: $(printf '%s\n' "$r" | grep 'ERROR SUMMARY') $(printf '%s\n' "$r" | grep -o 'status=[a-z]*')" | tee $O/san.txt
OLD_RKC=/tmp/rkc.head LIMIT=90 COPY=4274 OUT=$O/ab timeout 110 bash bench/ab.sh /tmp/rkc $D/call4-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $O/ab/ab.txt > $O/ab-table.txt 2>&1
gzip -9 $O/ab/ab.txt
tail -4 $O/ab-table.txt | cut -c1-160
