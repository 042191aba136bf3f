#!/bin/bash
# The batch-invariant mode against the default at the 22 odd-width points of calls 1 and 2, the
# final build (whole chunks at vec 1): each point default, invariant (both checked against
# float64), default, invariant; the best of each, and invariant/default.
# Run from the repository root on the GPU host with .carry/rkc.xz (the final build).
set -u
D=bench/results/h200-2026-12-04-whole-chunks
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt
start=$(date +%s)
while read -r k d s; do
	[ $(( $(date +%s) - start )) -gt 420 ] && echo "skipped $k $d $s" >> $OUT/runs.log && continue
	for i in 1 2; do
		for mode in default invariant; do
			a=(); [ $mode = invariant ] && a=(--batch-invariant)
			c=(); [ $i = 1 ] && c=(--check)
			echo "$mode $k $d $s | $(timeout 120 /tmp/rkc run testdata/kernels/$k.rk --dtype $d --shape $s --time --copy-gbps 4274 "${a[@]}" "${c[@]}" 2>&1 | grep RESULT | head -1)" >> $OUT/runs.log
		done
	done
done < $D/call3-points.txt
python3 - $OUT/runs.log > $OUT/table.txt <<'PY'
import math, re, sys
best, bad = {}, []
for line in open(sys.argv[1]):
    if " | " not in line:
        continue
    head, res = line.rstrip("\n").split(" | ", 1)
    mode, k, d, s = head.split()
    f = dict(re.findall(r"(\w+)=(\S+)", res))
    if f.get("status") not in ("ok", "unchecked"):
        bad.append(line.strip())
        continue
    key = (k, d, s)
    us = float(f["us"])
    best.setdefault(key, {})
    best[key][mode] = min(us, best[key].get(mode, us))
r = []
print("%-24s %-5s %-12s %10s %10s %8s" % ("kernel", "dtype", "shape", "default", "invariant", "inv/def"))
for (k, d, s), v in best.items():
    if "default" in v and "invariant" in v:
        x = v["invariant"] / v["default"]
        r.append(x)
        print("%-24s %-5s %-12s %10.2f %10.2f %8.3f" % (k, d, s, v["default"], v["invariant"], x))
print("%d points: invariant/default %.3f by geomean, range %.3f-%.3f" % (len(r), math.exp(sum(map(math.log, r)) / len(r)), min(r), max(r)))
print("runs not ok: %d" % len(bad))
for b in bad:
    print(b)
PY
cat $OUT/table.txt
