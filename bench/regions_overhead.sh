#!/bin/bash
# What the stamps cost (issue 12's overhead bar, docs/regions.md): every distinct shape of SUITES
# that moves from MINMB to MAXMB (bench/suite_shapes.py), each kernel's shapes in one
# `rkc run --time --regions --check` process, which times the kernel without the stamps on the
# same buffers before and after the stamped one (a plain kernel's time moves by up to 5% with
# where a process puts its buffers); the overhead is the stamped time against the plain times'
# mean, whose spread says what the drift is. Every run times with the L2 flushed; the stamped
# runs are checked against float64. Logs under $OUT, the table on stdout
# (bench/regions_overhead.py). Run from the repository root on the GPU host.
#
# usage: bench/regions_overhead.sh RKC
# env:   OUT      where logs go (default bench/out/regions-overhead)
#        DTYPE    (default bf16)
#        SUITES   (default "core transfer long_rows few_rows training wide_bwd")
#        KERNELS  (default: every kernel of testdata/kernels)
#        MINMB, MAXMB  the bounds (default 64 and 1500; MAXMB 0: none)
#        EVERY    --regions-every for the stamped run (default: the sampling's own)
#        COPY     copy bandwidth in GB/s (default: measured by the first run)
#        LIMIT    seconds the whole run may take: kernels not started by then are listed as
#                 skipped (default 540)
set -u
cd "$(dirname "$0")/.."
RKC=${1:?usage: bench/regions_overhead.sh RKC}
OUT=${OUT:-bench/out/regions-overhead}
DTYPE=${DTYPE:-bf16}
SUITES=${SUITES:-core transfer long_rows few_rows training wide_bwd}
KERNELS=${KERNELS:-$(basename -s .rk testdata/kernels/*.rk)}
MINMB=${MINMB:-64}
MAXMB=${MAXMB:-1500}
EVERY=${EVERY:-}
LIMIT=${LIMIT:-540}
mkdir -p "$OUT"
t0=$(date +%s)
{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "command: bench/regions_overhead.sh $RKC (DTYPE=$DTYPE SUITES='$SUITES' MINMB=$MINMB MAXMB=$MAXMB EVERY='$EVERY')"
	echo "rkc: $("$RKC" --version 2>&1)"
	echo "git: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
} >"$OUT/env.txt"
cat "$OUT/env.txt"
python3 bench/suite_shapes.py "$RKC" "$DTYPE" "$SUITES" "$KERNELS" "$MINMB" "$MAXMB" \
	>"$OUT/plan.txt" || exit 2
copy=()
[ -n "${COPY:-}" ] && copy=(--copy-gbps "$COPY")
stamp=(--regions --check)
[ -n "$EVERY" ] && stamp+=(--regions-every "$EVERY")
: >"$OUT/skipped.txt"
for kernel in $(cut -d' ' -f1 "$OUT/plan.txt" | uniq); do
	if [ $(($(date +%s) - t0)) -gt "$LIMIT" ]; then
		echo "$kernel" >>"$OUT/skipped.txt"
		continue
	fi
	shapes=()
	for s in $(awk -v k="$kernel" '$1 == k { print $2 }' "$OUT/plan.txt"); do
		shapes+=(--shape "$s")
	done
	timeout 300 "$RKC" run "testdata/kernels/$kernel.rk" "${shapes[@]}" --dtype "$DTYPE" \
		--time "${copy[@]}" "${stamp[@]}" >"$OUT/$kernel.log" 2>&1
	echo "$kernel: exit $?" >>"$OUT/progress.txt"
	if [ ${#copy[@]} = 0 ]; then
		g=$(sed -n 's/.*% of copy (\([0-9.]*\) GB\/s).*/\1/p' "$OUT/$kernel.log" | head -1)
		[ -n "$g" ] && copy=(--copy-gbps "$g") && echo "copy bandwidth: $g GB/s" >>"$OUT/env.txt"
	fi
done
echo "elapsed: $(($(date +%s) - t0)) s" >>"$OUT/env.txt"
python3 bench/regions_overhead.py "$OUT" | tee "$OUT/table.txt"
