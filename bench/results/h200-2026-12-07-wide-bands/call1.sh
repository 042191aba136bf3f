#!/bin/bash
# Call 1 (ran on an H200): the bands, checked off the points they were fitted on, and offered
# wider. Every run checked against float64; bench/ab.sh times main's pick forced (old) against a
# build's pick (new).
#  1. main bdc0799 (.carry/rkc-main.xz) at 24 points of the landed rule's class drawn at random
#     (bands-drawn-points.txt: drawpts.py seed 1207, fewer rows than SMs; none measured before).
#  2. the branch offering bands at any rows (.carry/rkc-wide.xz: band_cuts without its M < SMs
#     test) at 24 points of its class drawn at random (wide-drawn-points.txt:
#     ../h100-2026-12-07-bands/drawpts.py seed 1208, bounds 132 8192 30000 2000000), then at the 8
#     sm_90 golden points it moves (wide-golden-points.txt).
# Run from the repository root on the GPU host.
set -u
O=${OUT:-out}
T0=$(date +%s)
for b in main wide; do
	python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc-$b.xz').read())" >/tmp/rkc-$b
	chmod +x /tmp/rkc-$b
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >$O/env.txt
B=bench/results/h100-2026-12-07-bands
D=bench/results/h200-2026-12-07-wide-bands
ab() { # name rkc points limit
	LIMIT=$4 COPY=3027 OUT=$O/$1 timeout $(($4 + 30)) bash bench/ab.sh $2 $3 >$O/$1.log 2>&1
	python3 bench/ab_report.py $O/$1/ab.txt >$O/$1-table.txt 2>&1
	gzip -9 $O/$1/ab.txt
	echo "$1 at $(($(date +%s) - T0)) s"
}
ab drawn /tmp/rkc-main $B/bands-drawn-points.txt 140
ab wide-drawn /tmp/rkc-wide $D/wide-drawn-points.txt 200
ab wide-golden /tmp/rkc-wide $D/wide-golden-points.txt 90
for t in drawn wide-drawn wide-golden; do echo "== $t"; cut -c1-84 $O/$t-table.txt | tail -30; done
