#!/bin/bash
# Call 3 (anatomy): bias_gelu_back fp32 beside torch.compile at 64x50257, 100x28673, 8x1000003
# (misaligned) and 64x50256 (aligned): the table, one ncu pass over both (SpeedOfLight,
# LaunchStats, Occupancy, WarpStateStats, MemoryWorkloadAnalysis), inductor's generated source
# and rkc's PTX, as bench/torch_anatomy.sh does for the suites (the build of b982c45's code).
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
W=/tmp/anat
rm -rf $W && mkdir -p $W
export TORCHINDUCTOR_CACHE_DIR="$W/ind" TRITON_CACHE_DIR="$W/tri"
A=(--rkc $R --heldout .carry/s56/heldout3 --kernels bias_gelu_back --dtype f32 --shapes-per-kernel 4 --copy-gbps 4274)
timeout 150 python3 bench/torch_compare.py "${A[@]}" --csv $W/tc.csv --json $W/tc.json --workdir $W/ptx >$W/tc.txt 2>&1
echo "table: exit $?"
timeout 300 ncu --clock-control none --kernel-name "regex:^bias_gelu_back|^triton" \
	--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
	--section MemoryWorkloadAnalysis --csv --page details \
	python3 bench/torch_compare.py "${A[@]}" --csv $W/once.csv --json $W/once.json --workdir $W/ptx.once --once \
	>$W/ncu.csv 2>$W/ncu.err
echo "ncu: exit $?"
rm -rf $W/ptx.once
python3 bench/ncu_table.py $W/ncu.csv >$W/ncu.txt 2>&1
find $W/ind -name '*.py' | head -50 | xargs grep -l "def triton" 2>/dev/null | head -20 | tar czf "$OUT/ind-src.tgz" -T - 2>/dev/null
cp $W/tc.txt $W/ncu.txt "$OUT/"
gzip -c $W/ncu.csv >"$OUT/ncu.csv.gz"
tail -8 $W/tc.txt | cut -c1-125
cut -c1-220 $W/ncu.txt | head -40
for f in $(find $W/ind -name '*.py' | xargs grep -l "def triton" 2>/dev/null | head -6); do echo "== $f"; grep -n "triton_heuristics\|xnumel\|rnumel\|XBLOCK\|R0_BLOCK\|RBLOCK\|num_warps\|def triton" $f | head -12 | cut -c1-200; done
