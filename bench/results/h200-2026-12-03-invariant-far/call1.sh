#!/bin/bash
# call 1: memcheck and racecheck at new few-row invariant picks (clusters of 16, vec 1, kept
# rows), the old build's invariant pick against the new one's at the 49 moved sm_90 golden
# points (fewest rows first), and the default mode's pick at the same points of 64 rows or fewer
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-03-invariant-far
for b in rkc rkc0; do python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $O/env.txt 2>&1
: > $O/san.txt
for p in "memcheck rms_norm bf16 1x4194304" "memcheck welford fp32 3x1000003" "memcheck layer_norm bf16 4x1000003" "racecheck layer_norm bf16 4x1000003" "memcheck sum fp32 5x1000003"; do
	set -- $p
	r=$(timeout 60 compute-sanitizer --tool $1 --error-exitcode 9 /tmp/rkc run testdata/kernels/$2.rk --dtype $3 --shape $4 --check --batch-invariant 2>&1)
	echo "rc=$? $p: $(printf '%s\n' "$r" | grep 'ERROR SUMMARY\|HAZARD' | head -2 | tr '\n' ' ') $(printf '%s\n' "$r" | grep -o 'status=[a-z]*') $(printf '%s\n' "$r" | grep -o 'config=.*')" >> $O/san.txt
done
cat $O/san.txt | cut -c1-200
OLD_RKC=/tmp/rkc0 LIMIT=250 COPY=4274 OUT=$O/ab timeout 300 bash bench/ab.sh /tmp/rkc $D/call1-points.txt > /dev/null 2>&1
python3 bench/ab_report.py $O/ab/ab.txt > $O/ab-table.txt 2>&1
gzip -9 $O/ab/ab.txt
: > $O/default.txt
while read -r k dt s rest; do
	m=${s%%x*}
	[ "$m" -le 64 ] || continue
	timeout 30 /tmp/rkc run testdata/kernels/$k.rk --dtype $dt --shape $s --time --check --copy-gbps 4274 2>&1 | grep '^RESULT' >> $O/default.txt
done < $D/call1-points.txt
wc -l $O/default.txt
tail -6 $O/ab-table.txt | cut -c1-160
