#!/bin/bash
# One whole GPU run: check and time every kernel on every shape of the shape suites at bf16 and fp32,
# compute-sanitizer memcheck on every kernel at odd shapes, full logs under $OUT, a short table
# last. Run from the repository root on the GPU host.
#
# usage: bench/gpu_run.sh [RKC]     RKC: the rkc binary (default $RKC, else ./rkc, else build/rkc)
# env:   OUT      where logs go (default bench/out)
#        SUITES   testdata/shapes/<suite>.json to run (default "core transfer long_rows few_rows
#                 tiny_rows training";
#                 empty: none, for a memcheck-only run)
#        DTYPES   (default "bf16 f32")
#        KERNELS  only these kernels (default: every kernel of the suites)
#        SANITIZE 0 to skip compute-sanitizer;  TIME 0 to check only;  CHECK 0 to time only
#        LIMIT    seconds one rkc process may take (default 600)
#        POLICY   the policy whose configs run (default rkc; helion2828 for Helion's seed)
#        CONFIG   knobs forced over the policy's pick on every shape (e.g. evict=1)
#        RUNARGS  more arguments for every rkc run (e.g. --batch-invariant)
set -u
cd "$(dirname "$0")/.."
RKC=${1:-${RKC:-}}
if [ -z "$RKC" ]; then
	for c in ./rkc build/rkc; do [ -x "$c" ] && RKC=$c && break; done
fi
if [ -z "$RKC" ] || [ ! -x "$RKC" ]; then
	echo "gpu_run: no rkc binary (give its path, or set RKC)" >&2
	exit 2
fi
OUT=${OUT:-bench/out}
SUITES=${SUITES-core transfer long_rows few_rows tiny_rows training}
DTYPES=${DTYPES:-bf16 f32}
KERNELS=${KERNELS:-}
SANITIZE=${SANITIZE:-1}
TIME=${TIME:-1}
CHECK=${CHECK:-1}
LIMIT=${LIMIT:-600}
POLICY=${POLICY:-rkc}
CONFIG=${CONFIG:-}
RUNARGS=${RUNARGS:-}
mkdir -p "$OUT/run" "$OUT/sanitize"
start=$(date +%s)
elapsed() { echo "$(($(date +%s) - start))s"; }

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "command: bench/gpu_run.sh $RKC (SUITES='$SUITES' DTYPES='$DTYPES' KERNELS='$KERNELS' POLICY=$POLICY CONFIG='$CONFIG' RUNARGS='$RUNARGS' SANITIZE=$SANITIZE TIME=$TIME CHECK=$CHECK)"
	echo "rkc: $("$RKC" --version 2>&1)"
	echo "git: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1
	echo "ldd:"
	ldd "$RKC" 2>&1 | sed 's/^/  /'
	command -v compute-sanitizer >/dev/null && compute-sanitizer --version 2>&1 | tail -1
} >"$OUT/env.txt"
cat "$OUT/env.txt"

# "suite kernel shape shape ..." lines; a (B, L, V) shape runs as B*L rows.
plan=$(python3 - "$SUITES" "$KERNELS" <<'EOF'
import json, sys
suites, only = sys.argv[1].split(), set(sys.argv[2].split())
for s in suites:
    for k in json.load(open(f"testdata/shapes/{s}.json"))["kernels"]:
        if not only or k["kernel"] in only:
            print(s, k["kernel"], *("x".join(map(str, sh)) for sh in k["shapes"]))
EOF
) || exit 2

mode=()
[ "$CHECK" = 1 ] && mode+=(--check)
[ "$TIME" = 1 ] && mode+=(--time)
cfg=()
[ -n "$CONFIG" ] && cfg=(--config "$CONFIG") && mode+=("${cfg[@]}")
# shellcheck disable=SC2206 # RUNARGS is words
[ -n "$RUNARGS" ] && mode+=($RUNARGS)
copy=()
while read -r suite kernel shapes; do
	for dt in $DTYPES; do
		args=()
		for s in $shapes; do args+=(--shape "$s"); done
		log="$OUT/run/$suite.$kernel.$dt.log"
		timeout "$LIMIT" "$RKC" run "testdata/kernels/$kernel.rk" --dtype "$dt" --policy "$POLICY" "${mode[@]}" \
			"${copy[@]}" "${args[@]}" >"$log" 2>&1
		rc=$?
		[ $rc = 124 ] && echo "RESULT kernel=$kernel dtype=$dt status=TIMEOUT" >>"$log"
		# The copy bandwidth measured by the first timed process serves every later one, so
		# all percentages share one denominator.
		if [ ${#copy[@]} = 0 ] && [ "$TIME" = 1 ]; then
			g=$(sed -n 's/.*% of copy (\([0-9.]*\) GB\/s).*/\1/p' "$log" | head -1)
			[ -n "$g" ] && copy=(--copy-gbps "$g") && echo "copy bandwidth: $g GB/s" >>"$OUT/env.txt"
		fi
		echo "$(elapsed) $suite $kernel $dt: $(grep -c 'status=ok' "$log")/$(grep -c '^RESULT' "$log") ok (exit $rc)"
	done
done < <(printf '%s' "$plan" | grep .)

# Odd shapes under memcheck: one row, a one-element row, prime rows of prime length, GPT-2's
# vocabulary, and a prime row past a million (split rows).
if [ "$SANITIZE" = 1 ]; then
	odd=(--shape 1x4096 --shape 64x1 --shape 37x4099 --shape 3x50257 --shape 2x1000003)
	kernels=${KERNELS:-$(basename -s .rk testdata/kernels/*.rk)}
	for k in $kernels; do
		for dt in $DTYPES; do
			log="$OUT/sanitize/$k.$dt.log"
			timeout "$LIMIT" compute-sanitizer --tool memcheck --error-exitcode 9 \
				--print-limit 20 "$RKC" run "testdata/kernels/$k.rk" --dtype "$dt" \
				--check "${cfg[@]}" "${odd[@]}" >"$log" 2>&1
			rc=$?
			echo "$(elapsed) sanitize $k $dt: exit $rc, $(grep -o 'ERROR SUMMARY: [0-9]* errors*' "$log")"
		done
	done
fi

python3 bench/summarize.py "$OUT"
