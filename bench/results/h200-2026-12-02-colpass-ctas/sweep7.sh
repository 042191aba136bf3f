#!/bin/bash
# sweep.sh RKC POINTS OUTFILE: each point "kernel dtype MxN" timed (rkc run --time) at the pick
# and at column-pass configs named by warps, CTAs an SM and positions (vectors of 4 columns) a CTA:
# "wW mC pP" (grid cdiv(cdiv(N,4),P)) or "wW mC gSM" (grid SMs x C, rkc tune's cand p)
set -u
R=$1 PTS=$2 LOG=$3
CFGS="pick w8m4gSM w8m4p16 w8m4p8 w4m8p16 w4m8p8 w8m2p16"
: >"$LOG"
start=$(date +%s)
while read -r k d s; do
	case "$k" in ''|'#'*) continue ;; esac
	f=testdata/kernels/$k.rk; [ -f "$f" ] || f=bench/heldout/$k.rk; [ -f "$f" ] || f=$k
	N=${s#*x}; c4=$(( (N + 3) / 4 ))
	for c in $CFGS; do
		[ $(( $(date +%s) - start )) -gt ${LIMIT:-480} ] && { echo "SKIP $k $d $s $c" >>"$LOG"; continue; }
		w=${c#w}; w=${w%%m*}; m=${c#*m}; m=${m%%[pg]*}
		case $c in
		pick) a=() ;;
		*gSM) a=(--config "num_warps=$w,min_ctas=$m,grid=$((132 * m))") ;;
		*) p=${c##*p}; g=$(( (c4 + p - 1) / p )); x=""; [ "$w" -le 4 ] && x=",persistent=0,r_block=4096"; a=(--config "num_warps=$w,min_ctas=$m,grid=$g$x") ;;
		esac
		line=$(timeout 60 "$R" run "$f" --dtype "$d" --shape "$s" --time --copy-gbps 4274 "${a[@]}" </dev/null 2>&1 | grep '^RESULT' | tail -1)
		echo "$k $d $s $c | ${line:-ERROR}" >>"$LOG"
	done
done <"$PTS"
