#!/bin/bash
# call 3: sums over rows at widths whose partials no CTA's shared memory holds (the colsums' own
# pass, or partials through L2), M >= 2 x SMs: the policy's pick against a cluster of 2, 4 and 8
# CTAs a row whose segments' partials fit on chip (each the model's best at its size, colpass=0),
# every run checked against float64 and timed (L2 flushed)
set -u
O=${OUT:-out}
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
while read -r line; do
	echo "== $line"
	timeout 60 /tmp/rkc run $line --check --time --copy-gbps 4274 2>&1 | grep -v '^  '
done < bench/results/h200-2026-12-04-heldout7/call3-runs.txt > $O/call3-runs.log
grep -E '^==|RESULT' $O/call3-runs.log | python3 -c "
import sys,re
cur=None
for l in sys.stdin:
    if l.startswith('=='): cur=l[3:].strip(); continue
    m=re.search(r'status=(\w+).*us=([\d.]+).*copy_pct=([\d.]+).*regs=(\d+) local=(\d+)',l)
    c=re.search(r'--config (\S+)',cur); k=cur.split()[0].split('/')[-1][:-3]; s=cur.split()[2]; d=cur.split()[4]
    print(f'{k:22s} {d:5s} {s:11s} {(c.group(1) if c else \"pick\")[:75]:75s} {m.group(2):>9s} {m.group(3):>6s} {m.group(1)} r{m.group(4)} l{m.group(5)}')
"
