#!/bin/bash
# Call 1: streamed bands (cooperative bands walking the rows, their later passes reading the rows
# from L2: smem=0, evict=1) forced against the pick at the few_rows rows of 4194304 columns, and
# smem=2 against the pick's smem=1 where the stash keeps no row; each point old, new (checked),
# new, old (bench/ab.sh); then memcheck and racecheck on two streamed bands at odd shapes. Run from
# the repository root on the GPU host, carrying main's static release build as .carry/rkc97.xz.
set -u
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc97.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
D=bench/results/h100-2026-12-07-streamed-bands
T0=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; /tmp/rkc --version; } >$OUT/env.txt 2>&1
OUT=$OUT LIMIT=${LIMIT:-420} COPY=3027 bash bench/ab.sh /tmp/rkc $D/points.txt >$OUT/ab-stdout.txt 2>&1
echo "ab: $(( $(date +%s) - T0 )) s" >>$OUT/env.txt
for p in "dynamic_quant f32 7x50257 persistent=0,r_block=1024,m_block=1,num_warps=4,vec=4,cluster=8,coop=1,grid=16,smem=0,evict=1" \
	 "layer_norm bf16 9x30011 persistent=0,r_block=1024,m_block=1,num_warps=4,vec=8,cluster=4,coop=1,grid=8,smem=0,evict=1"; do
	set -- $p
	[ $(( $(date +%s) - T0 )) -gt 540 ] && echo "$1 $2 $3: not run (time)" >>$OUT/san.txt && continue
	for tool in memcheck racecheck; do
		timeout 40 compute-sanitizer --tool $tool /tmp/rkc run testdata/kernels/$1.rk --dtype $2 --shape $3 --config $4 --check >/tmp/san.txt 2>&1
		echo "$tool $1 $2 $3 $4: exit $? $(grep -o 'status=[a-z]*' /tmp/san.txt | head -1) $(grep 'ERROR SUMMARY' /tmp/san.txt | tail -1)" >>$OUT/san.txt
	done
done
echo "total: $(( $(date +%s) - T0 )) s" >>$OUT/env.txt
python3 bench/ab_report.py $OUT/ab.txt >$OUT/report.txt 2>&1
cat $OUT/env.txt $OUT/san.txt; cut -c1-150 $OUT/report.txt | tail -40
