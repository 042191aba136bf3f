#!/usr/bin/env python3
"""The policy's dropping rules against what they drop: reads `rkc tune --json` lines of several
points (one file) and tables, for each point, every set-aside candidate (cand "x") against the
seed, then a line per rule.

usage: python3 bench/aside_report.py TUNE.jsonl
"""
import json, math, sys, collections
if len(sys.argv) != 2:
    sys.exit(__doc__.strip())
rows = []
cur = []
for line in open(sys.argv[1]):
    line = line.strip()
    if not line.startswith('{'):
        continue
    o = json.loads(line)
    if o.get('kind') == 'candidate':
        cur.append(o)
    elif o.get('kind') == 'tune':
        seed = [c for c in cur if c.get('seed')]
        s_us = seed[0].get('us') if seed and seed[0]['status'] in ('ok', 'unchecked') else None
        for c in cur:
            if c.get('cand') == 'x' and s_us and c['status'] in ('ok', 'unchecked'):
                rows.append((c['rule'], o['kernel'], o['dtype'], f"{o['M']}x{o['N']}", s_us,
                             c['us'], c['us'] / s_us, seed[0]['config'], c['config']))
        cur = []
by = collections.defaultdict(list)
print(f"{'rule':22} {'kernel':24} {'dtype':5} {'shape':13} {'seed us':>9} {'aside us':>9} {'aside/seed':>10}  seed -> set aside")
for r in rows:
    by[r[0]].append(r[6])
    print(f"{r[0]:22} {r[1]:24} {r[2]:5} {r[3]:13} {r[4]:9.2f} {r[5]:9.2f} {r[6]:10.3f}  {r[7]} -> {r[8]}")
print()
for rule, v in sorted(by.items()):
    g = math.exp(sum(map(math.log, v)) / len(v))
    print(f"{rule}: {len(v)} points, set aside/seed {g:.3f} by geomean, set aside faster by over 5% at {sum(x < 0.95 for x in v)}, slower by over 5% at {sum(x > 1.05 for x in v)}, range {min(v):.3f}-{max(v):.3f}")
