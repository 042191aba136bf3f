#!/bin/sh
# `make run`'s second half: on a machine with a GPU, each kernel of `rkc table` at its table shape
# (bf16) checked against the float64 interpreter and timed (`rkc run --check --time`), a line
# each; without one, a line saying so and nothing else (exit 0). A GPU is there when nvidia-smi
# lists one or a small `rkc run` launches. Exit 1 when a check fails or a kernel does not run.
# usage: bench/table_run.sh RKC     (from the repository root)
# env:   KERNELS  only these kernels (default: the table's)
rkc=${1:?usage: bench/table_run.sh RKC}
cd "$(dirname "$0")/.." || exit 2
# an instrumented build (make's RKC_SANITIZE) must not fail on what the CUDA driver keeps
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
if ! { nvidia-smi -L >/dev/null 2>&1 ||
	"$rkc" run testdata/kernels/sum.rk --shape 1x32 --dtype fp32 --time --copy-gbps 1 \
		>/dev/null 2>&1; }; then
	echo "no GPU found (nvidia-smi, rkc run): the table's kernels were not run"
	exit 0
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
"$rkc" table --json >"$tmp/table" || exit 1
python3 -c '
import json, sys
only = sys.argv[1].split()
for line in open(sys.argv[2]):
    r = json.loads(line)
    if not r["error"] and (not only or r["kernel"] in only):
        print(r["kernel"], r["shape"])
' "${KERNELS:-}" "$tmp/table" >"$tmp/points"
printf '\n%-24s %-14s %-9s %10s %9s %7s\n' kernel shape check "time us" "GB/s" "% copy"
copy=""
bad=0
n=0
while read -r k shape; do
	"$rkc" run "testdata/kernels/$k.rk" --shape "$shape" --dtype bf16 --check --time $copy \
		>"$tmp/run" 2>&1
	res=$(grep '^RESULT' "$tmp/run" | tail -1)
	f() { printf '%s\n' "$res" | sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
	st=$(f status)
	[ "$st" = ok ] || bad=$((bad + 1))
	n=$((n + 1))
	printf '%-24s %-14s %-9s %10s %9s %7s\n' "$k" "$shape" "${st:-ERROR}" "$(f us)" "$(f gbps)" \
		"$(f copy_pct)"
	[ -n "$st" ] || sed 's/^/    /' "$tmp/run" | tail -3
	[ -z "$copy" ] && g=$(sed -n 's/.*% of copy (\([0-9.]*\) GB\/s).*/\1/p' "$tmp/run" | head -1) &&
		[ -n "$g" ] && copy="--copy-gbps $g"
done <"$tmp/points"
echo "$((n - bad)) of $n kernels checked ok"
[ "$bad" = 0 ]
