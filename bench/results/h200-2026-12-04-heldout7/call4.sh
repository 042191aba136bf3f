#!/bin/bash
# call 4: sums over rows at widths whose partials no CTA's shared memory holds (the colsums' own
# pass, or partials through L2), M >= 2 x SMs: the policy's pick against grids of clusters of 2 and 4
# CTAs at 1 and 2 CTAs an SM and of 8 at 2, each grid one wave,
# where a segment's partials fit on chip (each the model's best at its size, colpass=0),
# every run checked against float64 and timed (L2 flushed)
set -u
O=${OUT:-out}
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
SECONDS=0
while read -r line; do
	[ $SECONDS -gt 520 ] && break
	echo "== $line"
	timeout 45 /tmp/rkc run $line --check --time --copy-gbps 4274 2>&1 | grep -v '^  '
done < bench/results/h200-2026-12-04-heldout7/call4-runs.txt > $O/call4-runs.log
grep -E '^==|RESULT' $O/call4-runs.log | python3 -c '
import sys, re
cur = None
for l in sys.stdin:
    if l.startswith("=="):
        cur = l[3:].strip()
        continue
    w = cur.split()
    k, s, d = w[0].split("/")[-1][:-3], w[2], w[4]
    c = re.search(r"--config (\S+)", cur)
    c = c.group(1)[:75] if c else "pick"
    m = re.search(r"status=(\w+).*us=([\d.]+).*copy_pct=([\d.]+).*regs=(\d+) local=(\d+)", l)
    if not m:
        print(f"{k:22s} {d:5s} {s:11s} {c:75s} ERROR")
        continue
    print(f"{k:22s} {d:5s} {s:11s} {c:75s} {m.group(2):>9s} {m.group(3):>6s} {m.group(1)} r{m.group(4)} l{m.group(5)}")
'
