#!/bin/bash
# rkc tune on the points of calibrate.txt: the policy's top TOP candidates (default 16) checked
# and timed, full logs under $OUT/tune, the TUNE lines last.
# usage: bench/onchip/calibrate.sh RKC     (from the repository root on the GPU host)
set -u
cd "$(dirname "$0")/../.."
RKC=${1:?usage: bench/onchip/calibrate.sh RKC}
OUT=${OUT:-bench/out}
TOP=${TOP:-16}
mkdir -p "$OUT/tune"
copy=()
while read -r k shape dt; do
	case $k in '#'* | '') continue ;; esac
	log="$OUT/tune/$k.$shape.$dt.log"
	timeout 300 "$RKC" tune "testdata/kernels/$k.rk" --shape "$shape" --dtype "$dt" --top "$TOP" \
		"${copy[@]}" >"$log" 2>&1
	if [ ${#copy[@]} = 0 ]; then
		g=$(sed -n 's/.*copy \([0-9.]*\) GB\/s.*/\1/p' "$log" | head -1)
		[ -n "$g" ] && copy=(--copy-gbps "$g")
	fi
	echo "$k $shape $dt | $(grep '^TUNE' "$log" || tail -1 "$log")"
done <"${LIST:-bench/onchip/calibrate.txt}"
