#!/bin/bash
# H100: the stamps before a cluster barrier held (their timer read where they stand, their
# red.global after barrier.cluster.wait, as the arrive's release waits for the CTA's global
# writes in flight). 1: dynamic_quant bf16 512x262144 (clusters of 8) in separate processes, two
# rounds: the plain kernel, every block stamped as main compiled it (dq1), the same PTX edited by
# hand to hold the two stamps before the first barrier (dq1f) and the build that holds them (h1).
# 2: memcheck on a held-stamp run. 3: bench/regions_overhead.sh's method (rkc run --time
# --regions --check, both stampings, the plain kernel on the same buffers) at the 45 suite shapes
# of 64-1500 MB whose rows span a cluster (plan.txt). Run from the repository root.
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
H=bench/results/h100-2026-12-06-cluster-stamp
for round in 1 2; do
  for v in dqp dq1 dq1f h1; do
    $R run testdata/kernels/dynamic_quant.rk --dtype bf16 --ptx .carry/dq/$v.ptx --manifest .carry/dq/$v.json --time --check --copy-gbps 3027 > $OUT/$v.$round.log 2>&1
    echo "$v round $round: $(grep '^RESULT' $OUT/$v.$round.log | grep -o 'status=[^ ]*\| us=[^ ]*\|regs=[^ ]*' | tr '\n' ' ')"
  done
done
timeout 120 compute-sanitizer --tool memcheck $R run testdata/kernels/dynamic_quant.rk --dtype bf16 --shape 16x524288 --regions --regions-every 1 --check > $OUT/memcheck.txt 2>&1
echo "memcheck held stamps: $(grep -c 'status=ok' $OUT/memcheck.txt) $(grep 'ERROR SUMMARY' $OUT/memcheck.txt)"
mkdir -p $OUT/ovh
for k in $(cut -d' ' -f1 $H/plan.txt | uniq); do
  sh=(); for s in $(awk -v k=$k '$1 == k { print $2 }' $H/plan.txt); do sh+=(--shape $s); done
  timeout 200 $R run testdata/kernels/$k.rk "${sh[@]}" --dtype bf16 --time --copy-gbps 3027 --regions --check > $OUT/ovh/$k.log 2>&1
done
cp $H/plan.txt $OUT/ovh/plan.txt
python3 bench/regions_overhead.py $OUT/ovh > $OUT/table.txt
tar czf $OUT/logs.tgz -C $OUT $(cd $OUT && ls *.log) ovh && rm -rf $OUT/*.log $OUT/ovh
cat $OUT/table.txt
