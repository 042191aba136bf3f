#!/bin/bash
# smem=2 against smem=1 on the GPU: each line of the list (suite kernel MxN dtype) timed at the
# policy's pick (--time) and at the same config with the kept rows filled by cp.async (smem=2,
# --check --time); then each line of the sanitizer list under memcheck, racecheck and synccheck.
# Full logs under $OUT, a short table last.
# usage: bench/onchip/fill.sh RKC      (from the repository root on the GPU host)
# env:   FILL, SANITIZE_LIST: the two lists (default bench/onchip/fill.txt, fill-sanitize.txt)
set -u
cd "$(dirname "$0")/../.."
RKC=${1:?usage: bench/onchip/fill.sh RKC}
OUT=${OUT:-bench/out}
mkdir -p "$OUT/fill"
copy=()
n=0
while read -r suite k shape dt; do
	case $suite in '#'* | '') continue ;; esac
	n=$((n + 1))
	a="$OUT/fill/$n.$k.$shape.$dt.pick.log"
	b="$OUT/fill/$n.$k.$shape.$dt.fill.log"
	timeout 120 "$RKC" run "testdata/kernels/$k.rk" --shape "$shape" --dtype "$dt" --time \
		"${copy[@]}" >"$a" 2>&1
	if [ ${#copy[@]} = 0 ]; then
		g=$(sed -n 's/.*% of copy (\([0-9.]*\) GB\/s).*/\1/p' "$a" | head -1)
		[ -n "$g" ] && copy=(--copy-gbps "$g")
	fi
	timeout 180 "$RKC" run "testdata/kernels/$k.rk" --shape "$shape" --dtype "$dt" --check \
		--time --config smem=2 "${copy[@]}" >"$b" 2>&1
	ua=$(sed -n 's/^RESULT.* us=\([0-9.]*\).*copy_pct=\([0-9.]*\).*config=\(.*\)/\1 \2 \3/p' "$a")
	ub=$(sed -n 's/^RESULT.*status=\([A-Za-z]*\).* us=\([0-9.]*\).*copy_pct=\([0-9.]*\).*/\2 \3 \1/p' "$b")
	echo "$suite $k $shape $dt | ${ua:-none} | ${ub:-none}"
done <"${FILL:-bench/onchip/fill.txt}" | tee "$OUT/fill.txt"
# the sanitizer runs are probe.sh's, over the fill's list
PROBE=/dev/null SANITIZE_LIST="${SANITIZE_LIST:-bench/onchip/fill-sanitize.txt}" OUT="$OUT" \
	bench/onchip/probe.sh "$RKC"
# the table: pick us, smem=2 us, pick/smem=2 (over 1: the fill is faster), the check
python3 - "$OUT/fill.txt" <<'PY'
import math, sys
rows = [l.split("|") for l in open(sys.argv[1]) if l.count("|") == 2]
by = {}
print(f"{'point':46} {'pick':>9} {'%copy':>6} {'smem=2':>9} {'%copy':>6} {'ratio':>6} check")
for head, a, b in rows:
    a, b = a.split(), b.split()
    if len(a) < 3 or len(b) < 3:
        print(f"{head.strip():46} missing: {' '.join(a)} | {' '.join(b)}")
        continue
    r = float(a[0]) / float(b[0])
    by.setdefault(head.split()[0], []).append(r)
    print(f"{head.strip():46} {a[0]:>9} {a[1]:>6} {b[0]:>9} {b[1]:>6} {r:6.3f} {b[2]}  {' '.join(a[2:])}")
for s, v in by.items():
    g = math.exp(sum(map(math.log, v)) / len(v))
    print(f"{s}: {len(v)} points, pick/smem=2 geomean {g:.3f}, faster {sum(x > 1.03 for x in v)}, slower {sum(x < 0.97 for x in v)}")
PY
