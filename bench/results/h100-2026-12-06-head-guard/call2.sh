#!/bin/bash
# call 2 (H100): which part of call 1's change moved the every-block times. PTX compiled here
# (.carry/v: P plain; old = efc5a22; A = the timer read unpredicated, no branch at the head;
# B = the head's branch, the read predicated; D = both (f3111a1); E = D with the read predicated
# on a zeroed register) at the default sampling (0) and every block (1), each run checked
# against float64 and timed with the L2 flushed, in two rounds. Run from the repository root.
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt
T0=$(date +%s)
pts="cross_entropy_backward:8192x8192 layer_norm_backward:8192x8192 layer_norm_backward:4096x4096 rms_norm_backward:8192x8192 layer_norm_backward:4096x32768 layer_norm_backward:16384x4096 rms_norm_backward:4096x4096"
for round in 1 2; do
  for p in $pts; do
    k=${p%%:*}; s=${p#*:}
    for v in P old0 old1 A0 B0 B1 D0 D1 E0 E1; do
      f=.carry/v/$k.$s.$v
      timeout 60 $R run testdata/kernels/$k.rk --shape $s --dtype bf16 --ptx $f.ptx --manifest $f.json --check --time --copy-gbps 3027 > /tmp/v.txt 2>&1
      echo "$round $k $s $v: exit $? $(grep -o 'time [0-9.]* us' /tmp/v.txt | head -1) $(grep -o 'status=[a-z]*' /tmp/v.txt | head -1)" >> $OUT/times.txt
    done
  done
done
echo "total: $(( $(date +%s) - T0 )) s"
grep -v "exit 0" $OUT/times.txt | head
python3 - $OUT/times.txt <<'PY'
import re, sys
d = {}
for l in open(sys.argv[1]):
    m = re.match(r'(\d) (\S+) (\S+) (\S+): exit 0 time ([\d.]+) us', l)
    if m: d.setdefault((m.group(2), m.group(3)), {}).setdefault(m.group(4), []).append(float(m.group(5)))
vs = ['P', 'old0', 'A0', 'B0', 'D0', 'E0', 'old1', 'B1', 'D1', 'E1']
print(f"{'kernel':24} {'shape':11} " + ' '.join(f"{v:>13}" for v in vs))
for k, t in d.items():
    p = min(t['P'])
    cells = []
    for v in vs:
        x = t.get(v)
        cells.append(f"{min(x):7.1f} {100*(min(x)/p-1):+5.1f}" if x else ' ' * 13)
    print(f"{k[0]:24} {k[1]:11} " + ' '.join(cells))
PY
