#!/bin/bash
# Per-region timing on the GPU host (rkc run --regions, docs/regions.md): for every kernel of
# testdata/kernels, its shape of the core and transfer suites that moves the most bytes (at least
# 64 MB; 8192x8192 for a kernel in neither suite), timed with --time without and with the region
# stamps (the overhead), then the stamped kernel checked and its one-launch region table. Full logs
# under $OUT, a short table on stdout. Run from the repository root.
#
# usage: bench/regions.sh [RKC]     RKC: the rkc binary (default $RKC, else .carry/rkc, ./rkc,
#                                   build/rkc)
# env:   OUT      where logs go (default bench/out/regions)
#        DTYPE    (default bf16)
#        KERNELS  only these kernels (default: every kernel of testdata/kernels)
#        LIMIT    seconds one rkc process may take (default 600)
#        JSON     1: also K.regions.json, the region launch again with --json (default 0)
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
LIMIT=${LIMIT:-600}
JSON=${JSON:-0}
mkdir -p "$OUT"
{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "command: bench/regions.sh $RKC (DTYPE=$DTYPE KERNELS='$KERNELS')"
	echo "rkc: $("$RKC" --version 2>&1)"
	echo "git: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1
} >"$OUT/env.txt"
cat "$OUT/env.txt"

# "kernel MxN MB" per kernel: the suites' shape moving the most bytes at DTYPE (each [M,N], [M]
# and [N] array read or written once), or the fallback.
plan=$(for k in $KERNELS; do
	"$RKC" print --json "testdata/kernels/$k.rk" | python3 -c '
import json, sys
k, dt = sys.argv[1], sys.argv[2]
params = json.load(sys.stdin)["params"]
size = {"bf16": 2, "f16": 2, "fp16": 2, "f32": 4, "fp32": 4, "f8e4m3": 1, "f8e5m2": 1, "i64": 8,
        "i32": 4, "i8": 1, "bool": 1}
def moved(M, N):
    count = {"[M,N]": M * N, "[M]": M, "[N]": N}
    return sum(count.get(p["shape"], 0) * size[dt if p["type"] == "T" else p["type"]]
               for p in params if p["kind"] in ("in", "out"))
shapes = []
for s in ("core", "transfer"):
    for e in json.load(open(f"testdata/shapes/{s}.json"))["kernels"]:
        if e["kernel"] == k:
            for sh in e["shapes"]:
                M, N = 1, sh[-1]
                for d in sh[:-1]:
                    M *= d
                shapes.append((moved(M, N), M, N))
big = [s for s in shapes if s[0] >= 64e6]
b, M, N = max(big) if big else (moved(8192, 8192), 8192, 8192)
print(k, "%dx%d" % (M, N), "%.0f" % (b / 1e6))
' "$k" "$DTYPE"
done) || exit 2

field() { sed -n "s/.*[ ]$1=\([^ ]*\).*/\1/p" | head -1; }
copy=()
rows=()
while read -r kernel shape mb; do
	# grid=0: a persistent grid's CTA has one set of stamps (rkc refuses --regions with one)
	base=(run "testdata/kernels/$kernel.rk" --shape "$shape" --dtype "$DTYPE" --config grid=0)
	timeout "$LIMIT" "$RKC" "${base[@]}" --time "${copy[@]}" >"$OUT/$kernel.plain.log" 2>&1
	if [ ${#copy[@]} = 0 ]; then
		g=$(sed -n 's/.*% of copy (\([0-9.]*\) GB\/s).*/\1/p' "$OUT/$kernel.plain.log" | head -1)
		[ -n "$g" ] && copy=(--copy-gbps "$g") && echo "copy bandwidth: $g GB/s" >>"$OUT/env.txt"
	fi
	timeout "$LIMIT" "$RKC" "${base[@]}" --check --time --regions "${copy[@]}" \
		>"$OUT/$kernel.regions.log" 2>&1
	[ "$JSON" = 1 ] && timeout "$LIMIT" "$RKC" "${base[@]}" --regions --json >"$OUT/$kernel.regions.json" 2>&1
	plain=$(grep '^RESULT' "$OUT/$kernel.plain.log" | field us)
	stamped=$(grep '^RESULT' "$OUT/$kernel.regions.log" | field us)
	status=$(grep '^RESULT' "$OUT/$kernel.regions.log" | field status)
	reg=$(grep '^REGIONS' "$OUT/$kernel.regions.log")
	rows+=("$kernel $shape $mb ${plain:-?} ${stamped:-?} ${status:-ERROR} $(printf '%s' "$reg" | field kernel_us) $(printf '%s' "$reg" | field span_us) $(printf '%s' "$reg" | field sum_med_us) $(printf '%s' "$reg" | field dominant) $(printf '%s' "$reg" | field share) $(printf '%s' "$reg" | field tick_ns)")
done < <(printf '%s\n' "$plan" | grep .)

# kernel time: --time's median without the stamps; with: the same with them; launch: the one
# launch the stamps come from (L2 flushed); sum/time: the regions' medians over the time without.
printf '%s\n' "${rows[@]}" | python3 -c '
import sys
def f(x):
    try:
        return float(x)
    except ValueError:
        return None
print("%-22s %-13s %6s %10s %10s %9s %10s %10s %8s %9s %-18s %6s %6s" % ("kernel", "shape", "MB",
      "time us", "stamped us", "overhead", "launch us", "span us", "sum us", "sum/time",
      "dominant", "share", "step"))
for line in sys.stdin:
    k, shape, mb, plain, stamped, status, launch, span, summ, dom, share, tick = (line.split() + ["?"] * 12)[:12]
    p, s, m = f(plain), f(stamped), f(summ)
    over = "%+.1f%%" % (100 * (s / p - 1)) if p and s else "?"
    ratio = "%.2f" % (m / p) if p and m is not None else "?"
    print("%-22s %-13s %6s %10s %10s %9s %10s %10s %8s %9s %-18s %5s%% %4sns%s" % (k, shape, mb, plain,
          stamped, over, launch, span, summ, ratio, dom, share, tick,
          "" if status == "ok" else "  " + status))
' | tee "$OUT/table.txt"
