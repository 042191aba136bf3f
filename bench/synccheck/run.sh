#!/bin/bash
# Is a synccheck report rkc's or the tool's? Builds cluster_probe.cu (plain CUDA C: shuffles,
# __syncthreads, cluster barriers, distributed shared memory) and runs it under compute-sanitizer
# synccheck and memcheck, and alone, at clusters of 8 and 16 CTAs with more clusters than fit at
# once. One line a run: the sanitizer's error count and the probe's own check.
# usage: bench/synccheck/run.sh      (from the repository root on the GPU host; env OUT for logs)
set -u
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
bin=$OUT/cluster_probe log=$OUT/synccheck-probe.log
nvcc -arch=sm_90 -O2 -o "$bin" bench/synccheck/cluster_probe.cu || exit 1
: >"$log"
for a in "8 132 70001 2" "16 33 70001 2" "16 66 70001 2" "16 132 70001 1" "16 132 70001 2"; do
	read -ra args <<<"$a"
	for tool in synccheck memcheck; do
		echo "== $tool $a" >>"$log"
		out=$(compute-sanitizer --tool $tool --print-limit 2 "$bin" "${args[@]}" 2>&1)
		echo "$out" >>"$log"
		echo "$tool $a: $(grep -o 'ERROR SUMMARY: [0-9]* error' <<<"$out" | head -1)," \
			"$(grep -c 'Divergent thread' <<<"$out") printed divergent-barrier reports"
	done
	echo "alone $a: $("$bin" "${args[@]}" 2>&1)"
done
