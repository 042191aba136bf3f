#!/bin/bash
# Per-region timing on the GPU host (rkc run --regions, docs/regions.md): for every kernel of
# testdata/kernels, its shape of the SUITES that moves the most bytes from 64 MB to MAXMB (the
# fewest above, when none is under; 8192x8192 for a kernel in none of them), at
# the policy's config:
#   plain    --time without the stamps (the kernel's time and its % of copy bandwidth);
#   stamped  --check --time --regions: the overhead, and one L2-flushed launch's region table;
#   onewave  --check --regions --regions-every 1 (every row block stamped: each CTA's whole
#            life) under a one-wave grid: where the policy picks no persistent grid, with
#            --config grid=G$ONEWAVE_KNOBS, G the SMs times the CTAs an SM holds (the stamped
#            run's occupancy; once more with the grid's own when that differs), so every CTA is
#            resident for the kernel's life, then at the fewest groups that take the row blocks
#            in as many turns (equal shares); where it picks one, at the policy's config;
# and `rkc explain --json` (the cost model's terms). bench/regions_report.py then prints bar 2's
# checks (the medians' sum and the kernel-level column against the launch, the overhead) and the
# verdicts for the five kernels furthest from copy bandwidth. Full logs under $OUT, the tables on
# stdout. Run from the repository root.
#
# usage: bench/regions.sh [RKC]     RKC: the rkc binary (default $RKC, else .carry/rkc, ./rkc,
#                                   build/rkc)
# env:   OUT      where logs go (default bench/out/regions)
#        DTYPE    (default bf16)
#        KERNELS  only these kernels (default: every kernel of testdata/kernels)
#        SUITES   the suites of testdata/shapes whose shapes it picks from (default "core
#                 transfer")
#        MAXMB    the most MB a shape may move (default 1500: each process makes its inputs on
#                 the host, and the widest vocabulary shapes move 6-8 GB; 0: no bound)
#        LIMIT    seconds one rkc process may take (default 300)
#        ONEWAVE  0: no one-wave grid runs (default 1)
#        ONEWAVE_KNOBS  more knobs for the one-wave grid (default ",dynamic=1": the work counter,
#                 so that no CTA idles while another still has blocks)
set -u
cd "$(dirname "$0")/.."
RKC=${1:-${RKC:-}}
if [ -z "$RKC" ]; then
	for c in .carry/rkc ./rkc build/rkc; do [ -x "$c" ] && RKC=$c && break; done
fi
if [ -z "$RKC" ] || [ ! -x "$RKC" ]; then
	echo "regions: no rkc binary (give its path, or set RKC)" >&2
	exit 2
fi
OUT=${OUT:-bench/out/regions}
DTYPE=${DTYPE:-bf16}
KERNELS=${KERNELS:-$(basename -s .rk testdata/kernels/*.rk)}
MAXMB=${MAXMB:-1500}
SUITES=${SUITES:-core transfer}
LIMIT=${LIMIT:-300}
ONEWAVE=${ONEWAVE:-1}
ONEWAVE_KNOBS=${ONEWAVE_KNOBS-,dynamic=1}
mkdir -p "$OUT"
t0=$(date +%s)
{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "command: bench/regions.sh $RKC (DTYPE=$DTYPE SUITES='$SUITES' MAXMB=$MAXMB ONEWAVE=$ONEWAVE ONEWAVE_KNOBS='$ONEWAVE_KNOBS' KERNELS='$(echo $KERNELS)')"
	echo "rkc: $("$RKC" --version 2>&1)"
	echo "git: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1
} >"$OUT/env.txt"
cat "$OUT/env.txt"

# "kernel MxN MB" per kernel: the suites' shape moving the most bytes at DTYPE within the bounds,
# or the fallback (bench/suite_shapes.py).
plan=$(python3 bench/suite_shapes.py "$RKC" "$DTYPE" "$SUITES" "$KERNELS" 64 "$MAXMB" \
	--largest) || exit 2
printf '%s\n' "$plan" >"$OUT/plan.txt"

field() { sed -n "s/.*[ ]$1=\([^ ]*\).*/\1/p" | head -1; }
copy=()
while read -r kernel shape mb; do
	k=testdata/kernels/$kernel.rk
	base=(run "$k" --shape "$shape" --dtype "$DTYPE")
	"$RKC" explain "$k" --shape "$shape" --dtype "$DTYPE" --json >"$OUT/$kernel.explain.json" 2>&1
	timeout "$LIMIT" "$RKC" "${base[@]}" --time "${copy[@]}" >"$OUT/$kernel.plain.log" 2>&1
	if [ ${#copy[@]} = 0 ]; then
		g=$(sed -n 's/.*% of copy (\([0-9.]*\) GB\/s).*/\1/p' "$OUT/$kernel.plain.log" | head -1)
		[ -n "$g" ] && copy=(--copy-gbps "$g") && echo "copy bandwidth: $g GB/s" >>"$OUT/env.txt"
	fi
	timeout "$LIMIT" "$RKC" "${base[@]}" --check --time --regions "${copy[@]}" \
		>"$OUT/$kernel.regions.log" 2>&1
	reg=$(grep '^REGIONS' "$OUT/$kernel.regions.log")
	grid=$(grep '^RESULT' "$OUT/$kernel.regions.log" | sed -n 's/.*"grid":\([0-9]*\).*/\1/p')
	per_sm=$(printf '%s' "$reg" | field per_sm)
	sms=$(printf '%s' "$reg" | field sms)
	rm -f "$OUT/$kernel.onewave.log"
	if [ "$ONEWAVE" = 1 ] && [ "${grid:-0}" != 0 ]; then
		timeout "$LIMIT" "$RKC" "${base[@]}" --check --regions --regions-every 1 \
			>"$OUT/$kernel.onewave.log" 2>&1
	elif [ "$ONEWAVE" = 1 ] && [ -n "$per_sm" ] && [ -n "$sms" ]; then
		# a one-wave grid; a knob the grid cannot keep (rows in shared memory that no longer
		# fit without the cluster, a tail a vector at a time) is dropped; the grid's own
		# occupancy, when it differs, sizes it again
		for try in 1 2; do
			G=$((per_sm * sms))
			for extra in "" ",smem=0" ",steps=0" ",smem=0,steps=0"; do
				timeout "$LIMIT" "$RKC" "${base[@]}" --check --regions --regions-every 1 \
					--config "grid=$G$ONEWAVE_KNOBS$extra" >"$OUT/$kernel.onewave.log" 2>&1
				grep -q 'infeasible --config' "$OUT/$kernel.onewave.log" || break
			done
			r=$(grep '^REGIONS' "$OUT/$kernel.onewave.log")
			p=$(printf '%s' "$r" | field per_sm)
			[ -z "$p" ] || [ "$p" = "$per_sm" ] && break
			per_sm=$p
		done
		# equal shares: the fewest groups (a row block's CTAs: its cluster or split) that
		# still take the work in as many turns as G's, so that no CTA runs a block more than
		# another and the median CTA's life is the launch's
		r=$(grep '^REGIONS' "$OUT/$kernel.onewave.log")
		g=$(printf '%s' "$r" | field grid)
		slots=$(printf '%s' "$r" | field blocks)
		seg=$(grep '^RESULT' "$OUT/$kernel.onewave.log" | python3 -c '
import json, sys
c = json.loads(sys.stdin.read().split("config=", 1)[1])
print(max(c["cluster"], c["split"]))' 2>/dev/null)
		if [ -n "$g" ] && [ -n "$slots" ] && [ -n "$seg" ]; then
			w=$((g / seg)) u=$((slots / seg))
			t=$(((u + w - 1) / w))
			G2=$((((u + t - 1) / t) * seg))
			if [ "$G2" -lt "$g" ]; then
				mv "$OUT/$kernel.onewave.log" "$OUT/$kernel.onewave-unequal.log"
				timeout "$LIMIT" "$RKC" "${base[@]}" --check --regions --regions-every 1 \
					--config "grid=$G2$ONEWAVE_KNOBS$extra" >"$OUT/$kernel.onewave.log" 2>&1
			fi
		fi
	fi
	echo "$kernel $shape: $(($(date +%s) - t0)) s" >>"$OUT/progress.txt"
done < <(printf '%s\n' "$plan" | grep .)
echo "elapsed: $(($(date +%s) - t0)) s" >>"$OUT/env.txt"
python3 bench/regions_report.py "$OUT" | tee "$OUT/table.txt"
