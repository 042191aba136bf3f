#!/bin/bash
# 84th session, call 2: the head (0e59416) against COLPASS_OVERLAP at the 7 other points of the
# last session's sets whose PTX it changes (recheck-points.txt); then the last session's change
# against its parent at the 7 of its other-points.txt call 1 did not reach (other-left.txt).
set -u
xz -dc .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
COPY=3027; grep -q H200 $OUT/device.txt && COPY=4274
T0=$(date +%s)
run() { # name seconds-from-start-by-which-to-stop points
	OUT=$OUT/$1 COPY=$COPY LIMIT=$(( $2 - ($(date +%s) - T0) )) bash bench/ab.sh /tmp/rkc $3 > $OUT/$1_table.txt 2>&1
	echo "== $1"; cut -c1-100 $OUT/$1_table.txt
	gzip -f $OUT/$1/ab.txt
}
run recheck 190 .carry/s84/recheck-points.txt
run otherleft 330 .carry/s84/other-left.txt
echo "total: $(( $(date +%s) - T0 )) s"
