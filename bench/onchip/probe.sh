#!/bin/bash
# The on-chip modes on the GPU, forced: each line of probe.txt checked and timed (the policy's
# pick where the config is -), then each line of sanitize.txt under compute-sanitizer memcheck,
# racecheck and synccheck. Full logs under $OUT, a short table last.
# usage: bench/onchip/probe.sh RKC      (from the repository root on the GPU host)
# env:   PROBE, SANITIZE_LIST: the two lists (default bench/onchip/probe.txt, sanitize.txt)
set -u
cd "$(dirname "$0")/../.."
RKC=${1:?usage: bench/onchip/probe.sh RKC}
OUT=${OUT:-bench/out}
mkdir -p "$OUT/probe" "$OUT/sanitize"
copy=()
n=0
while read -r k shape dt cfg; do
	case $k in '#'* | '') continue ;; esac
	n=$((n + 1))
	c=()
	[ "$cfg" != - ] && c=(--config "$cfg")
	log="$OUT/probe/$n.$k.log"
	timeout 300 "$RKC" run "testdata/kernels/$k.rk" --shape "$shape" --dtype "$dt" --check --time \
		"${c[@]}" "${copy[@]}" >"$log" 2>&1
	if [ ${#copy[@]} = 0 ]; then
		g=$(sed -n 's/.*% of copy (\([0-9.]*\) GB\/s).*/\1/p' "$log" | head -1)
		[ -n "$g" ] && copy=(--copy-gbps "$g")
	fi
	r=$(grep '^RESULT' "$log" | head -1)
	echo "$k $shape $dt $cfg | ${r:-$(tail -1 "$log")}"
done <"${PROBE:-bench/onchip/probe.txt}" | tee "$OUT/probe.txt"
while read -r k shape dt cfg; do
	case $k in '#'* | '') continue ;; esac
	for tool in memcheck racecheck synccheck; do
		log="$OUT/sanitize/$k.$shape.$tool.log"
		timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 20 \
			"$RKC" run "testdata/kernels/$k.rk" --shape "$shape" --dtype "$dt" --check \
			--config "$cfg" >"$log" 2>&1
		rc=$?
		echo "$tool $k $shape $dt $cfg: exit $rc, $(grep -o 'ERROR SUMMARY: [0-9]* errors*' "$log" | tail -1), $(grep -c 'status=ok' "$log") ok"
	done
done <"${SANITIZE_LIST:-bench/onchip/sanitize.txt}" | tee "$OUT/sanitize.txt"
