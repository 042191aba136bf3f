#!/bin/bash
# call 5: the picks of the build that offers grids of clusters to every kernel whose colsums pass
# a CTA's shared memory at a whole row (.carry/rkc1.xz), at call 4's points (their old picks were
# timed there), every run checked against float64 and timed (L2 flushed)
set -u
O=${OUT:-out}
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc1.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
SECONDS=0
while read -r line; do
	[ $SECONDS -gt 520 ] && break
	echo "== $line"
	timeout 45 /tmp/rkc run $line --check --time --copy-gbps 4274 2>&1 | grep -v '^  '
done < bench/results/h200-2026-12-04-heldout7/call5-runs.txt > $O/call5-runs.log
grep -E '^==|RESULT' $O/call5-runs.log | python3 -c '
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
