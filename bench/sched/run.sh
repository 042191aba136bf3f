#!/bin/bash
# The persistent grid on the GPU in one call: probe.txt checked and timed and sanitize.txt under
# compute-sanitizer (bench/onchip/probe.sh), then `rkc tune` at each point of tune.txt (TOP
# candidates, the grid variants among them). Full logs under $OUT, a short table last.
# usage: bench/sched/run.sh RKC     (from the repository root on the GPU host)
set -u
cd "$(dirname "$0")/../.."
RKC=${1:?usage: bench/sched/run.sh RKC}
OUT=${OUT:-bench/out}
TOP=${TOP:-16}
mkdir -p "$OUT/tune"
PROBE=bench/sched/probe.txt SANITIZE_LIST=bench/sched/sanitize.txt OUT=$OUT \
	bench/onchip/probe.sh "$RKC" >"$OUT/probe_all.txt" 2>&1
while read -r k shape dt; do
	case $k in '#'* | '') continue ;; esac
	log="$OUT/tune/$k.$shape.$dt.log"
	timeout 120 "$RKC" tune "testdata/kernels/$k.rk" --shape "$shape" --dtype "$dt" --top "$TOP" \
		>"$log" 2>&1
	echo "$k $shape $dt | $(grep '^TUNE' "$log" | head -1)"
	grep -E '^ *[0-9]+ ' "$log" | head -6 | sed 's/^/    /'
done <bench/sched/tune.txt | tee "$OUT/tune.txt"
echo "== probe and sanitize"
cat "$OUT/probe_all.txt"
