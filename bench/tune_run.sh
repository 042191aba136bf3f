#!/bin/bash
# The seed-vs-best bar (the rkc policy's pick within 5% of the best config `rkc tune` finds, at
# every point): `rkc tune` over (kernel, shape, dtype) points of the shape suites, full logs under
# $OUT, a short table last: per point the seed's time over the best candidate's and the seed's
# rank, then the geomean and max of that ratio and the count within 5%, and where tune added the
# seed over an odd count of warps (cand o), its row over a cluster (cand c, the faster of the two
# cuts), the seed one CTA an SM higher (cand k), the seed at a cap that holds its registers
# (cand r) and the best candidates the policy's dropping rules set aside (cand x, the fastest),
# their times over the seed's.
# Run from the repository root on the GPU host.
#
# usage: bench/tune_run.sh [RKC]    RKC: the rkc binary (default $RKC, else ./rkc, else build/rkc)
# env:   OUT      where logs go (default bench/out-tune)
#        SUITES   testdata/shapes/<suite>.json to take kernels from (default "core transfer")
#        DTYPES   (default "bf16 f32")
#        KERNELS  only these kernels (default: every kernel of the suites)
#        SHAPES   which shapes of a kernel: last (default: the suite's last, among its largest),
#                 largest (most elements), first, or all
#        TOP      candidates from the rkc policy's ranking (default 12; helion2828's pick is added)
#        LIMIT    seconds one rkc process may take (default 300)
set -u
cd "$(dirname "$0")/.."
RKC=${1:-${RKC:-}}
if [ -z "$RKC" ]; then
	for c in ./rkc build/rkc; do [ -x "$c" ] && RKC=$c && break; done
fi
if [ -z "$RKC" ] || [ ! -x "$RKC" ]; then
	echo "tune_run: no rkc binary (give its path, or set RKC)" >&2
	exit 2
fi
OUT=${OUT:-bench/out-tune}
SUITES=${SUITES:-core transfer}
DTYPES=${DTYPES:-bf16 f32}
KERNELS=${KERNELS:-}
SHAPES=${SHAPES:-last}
TOP=${TOP:-12}
LIMIT=${LIMIT:-300}
case $SHAPES in first | last | largest | all) ;; *)
	echo "tune_run: SHAPES is first, last, largest or all, not '$SHAPES'" >&2
	exit 2
	;;
esac
mkdir -p "$OUT/tune"
start=$(date +%s)
elapsed() { echo "$(($(date +%s) - start))s"; }

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "command: bench/tune_run.sh $RKC (SUITES='$SUITES' DTYPES='$DTYPES' KERNELS='$KERNELS' SHAPES=$SHAPES TOP=$TOP)"
	echo "rkc: $("$RKC" --version 2>&1)"
	echo "git: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1
} >"$OUT/env.txt"
cat "$OUT/env.txt"

# "suite kernel MxN" lines; a (B, L, V) shape runs as B*L rows.
plan=$(python3 - "$SUITES" "$KERNELS" "$SHAPES" <<'EOF'
import json, math, sys
suites, only, which = sys.argv[1].split(), set(sys.argv[2].split()), sys.argv[3]
for s in suites:
    for k in json.load(open(f"testdata/shapes/{s}.json"))["kernels"]:
        if only and k["kernel"] not in only:
            continue
        shapes = k["shapes"]
        pick = {"first": shapes[:1], "last": shapes[-1:], "all": shapes,
                "largest": [max(shapes, key=math.prod)]}[which]
        for sh in pick:
            print(s, k["kernel"], "x".join(map(str, sh)))
EOF
) || exit 2

copy=()
while read -r suite kernel shape; do
	for dt in $DTYPES; do
		log="$OUT/tune/$suite.$kernel.$shape.$dt.log"
		timeout "$LIMIT" "$RKC" tune "testdata/kernels/$kernel.rk" --shape "$shape" --dtype "$dt" \
			--top "$TOP" "${copy[@]}" >"$log" 2>&1
		rc=$?
		[ $rc = 124 ] && echo "TIMEOUT after ${LIMIT}s" >>"$log"
		# The copy bandwidth measured by the first process serves every later one.
		if [ ${#copy[@]} = 0 ]; then
			g=$(sed -n 's/.*copy_gbps=\([0-9.]*\).*/\1/p' "$log" | head -1)
			[ -n "$g" ] && copy=(--copy-gbps "$g") && echo "copy bandwidth: $g GB/s" >>"$OUT/env.txt"
		fi
		echo "$(elapsed) $suite $kernel $shape $dt: exit $rc, $(grep -o 'seed_over_best=[^ ]* seed_rank=[^ ]*' "$log" || echo 'no TUNE line')"
	done
done < <(printf '%s\n' "$plan" | grep .)

python3 - "$OUT" <<'EOF'
import csv, glob, math, os, re, sys
out = sys.argv[1]
rows = []


def variant(text, cand, seed_us):
    """The fastest row of an added candidate (docs/tune.md): its config and its time over the
    seed's, or two empty strings where tune did not add it."""
    m = re.search(r"^\s*\S+\s+" + cand + r"\s+(.*?)\s+[\d.]+\s+([\d.]+)\s", text, re.M)
    if not m or seed_us in ("", "nan") or float(seed_us) <= 0:
        return (m.group(1) if m else ""), ""
    return m.group(1), f"{float(m.group(2)) / float(seed_us):.3f}"


for log in sorted(glob.glob(os.path.join(out, "tune", "*.log"))):
    suite, kernel, shape, dtype = os.path.basename(log)[:-4].split(".")
    text = open(log).read()
    t = re.search(r"^TUNE (.*)$", text, re.M)
    f = dict(kv.split("=", 1) for kv in t.group(1).split(" ")) if t else {}
    s = re.search(r"^seed (.*?): .*; best (.*?): ", text, re.M)
    seed_us = f.get("seed_us", "")
    odd_config, odd = variant(text, "o", seed_us)
    cluster_config, cluster = variant(text, "c", seed_us)
    squeeze_config, squeeze = variant(text, "k", seed_us)
    loose_config, loose = variant(text, "r", seed_us)
    aside_config, aside = variant(text, "x", seed_us)
    rows.append({"suite": suite, "kernel": kernel, "shape": shape, "dtype": dtype,
                 "seed_us": f.get("seed_us", ""), "best_us": f.get("best_us", ""),
                 "seed_over_best": f.get("seed_over_best", ""), "seed_rank": f.get("seed_rank", ""),
                 "candidates": f.get("candidates", ""), "seed_status": f.get("seed_status", "ERROR"),
                 "helion_over_best": f.get("helion_over_best", ""),
                 "seed_config": s.group(1) if s else "", "best_config": s.group(2) if s else "",
                 "odd_config": odd_config, "odd_over_seed": odd,
                 "cluster_config": cluster_config, "cluster_over_seed": cluster,
                 "squeeze_config": squeeze_config, "squeeze_over_seed": squeeze,
                 "loose_config": loose_config, "loose_over_seed": loose,
                 "aside_config": aside_config, "aside_over_seed": aside})
with open(os.path.join(out, "tune_points.csv"), "w", newline="") as fh:
    w = csv.DictWriter(fh, fieldnames=list(rows[0]) if rows else ["kernel"])
    w.writeheader()
    w.writerows(rows)
print(f"{'kernel':24} {'dtype':5} {'shape':>14} {'seed/best':>9} {'rank':>6} {'helion/best':>11}  seed -> best")
ratios = []
for r in rows:
    ok = r["seed_rank"] not in ("", "0")
    ratio = float(r["seed_over_best"]) if ok else math.inf
    if ok:
        ratios.append(ratio)
    print(f"{r['kernel']:24} {r['dtype']:5} {r['shape']:>14} "
          f"{(f'{ratio:.3f}' if ok else r['seed_status']):>9} "
          f"{(r['seed_rank'] + '/' + r['candidates']) if ok else '-':>6} {r['helion_over_best']:>11}  "
          f"{r['seed_config'] or '-'}{'' if r['seed_config'] == r['best_config'] else ' -> ' + r['best_config']}")
if ratios:
    gm = math.exp(sum(map(math.log, ratios)) / len(ratios))
    within = sum(x <= 1.05 for x in ratios)
    print(f"points: {len(rows)} ({len(rows) - len(ratios)} without a seed time); seed/best geomean "
          f"{gm:.3f}, max {max(ratios):.3f}; within 5%: {within}/{len(ratios)}")
else:
    print(f"points: {len(rows)}, none with a seed time")
for key, what in (("odd_over_seed", "odd warps (cand o)"),
                  ("cluster_over_seed", "the row over a cluster (cand c)"),
                  ("squeeze_over_seed", "one CTA an SM higher (cand k)"),
                  ("loose_over_seed", "a cap that holds its registers (cand r)"),
                  ("aside_over_seed", "the fastest a dropping rule set aside (cand x)")):
    x = [float(r[key]) for r in rows if r[key]]
    if x:
        gm = math.exp(sum(map(math.log, x)) / len(x))
        print(f"{what}: {len(x)} points, over the seed: geomean {gm:.3f}, faster by over 2% at "
              f"{sum(v < 0.98 for v in x)}, slower by over 2% at {sum(v > 1.02 for v in x)}")
EOF
