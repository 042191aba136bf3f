# model_vs.py RKC SWEEP: the model's µs (rkc explain --config) beside the measured µs of each sweep line
import sys, re, subprocess, math
R, S = sys.argv[1], sys.argv[2]
rows = []
for ln in open(S):
    if '|' not in ln: continue
    head, res = ln.split('|', 1)
    k, d, s, c = head.split()
    m = re.search(r'us=([0-9.]+)', res)
    cf = re.search(r'config=(\{.*\})', res)
    if not m or not cf: continue
    import json
    j = json.loads(cf.group(1))
    keys = ['num_warps', 'min_ctas', 'grid', 'persistent', 'r_block', 'vec', 'm_block']
    cfg = ','.join('%s=%s' % (x, int(j[x]) if not isinstance(j[x], bool) else int(j[x])) for x in keys)
    f = 'testdata/kernels/%s.rk' % k
    import os
    if not os.path.exists(f): f = 'bench/heldout/%s.rk' % k
    if not os.path.exists(f): f = k
    out = subprocess.run([R, 'explain', f, '--dtype', d, '--shape', s, '--config', cfg], capture_output=True, text=True).stdout
    mm = re.search(r'modelled ([0-9.]+) us', out)
    if os.environ.get("ONLY") and c not in os.environ["ONLY"].split(","): continue
    rows.append((k.split('/')[-1], d, s, c, float(m.group(1)), float(mm.group(1)) if mm else float('nan')))
pts = {}
for r in rows: pts.setdefault(r[:3], []).append(r)
agree = total = 0
for p, rs in pts.items():
    best_meas = min(rs, key=lambda r: r[4]); best_mod = min(rs, key=lambda r: r[5])
    print('%-36s measured best %-9s %7.2f  model best %-9s (measured %7.2f, %.3fx)' % (' '.join(p), best_meas[3], best_meas[4], best_mod[3], best_mod[4], best_mod[4] / best_meas[4]))
    # pairwise ranking agreement
    for i in range(len(rs)):
        for j in range(i + 1, len(rs)):
            a, b = rs[i], rs[j]
            if abs(a[4] - b[4]) / min(a[4], b[4]) < 0.05: continue
            total += 1; agree += (a[4] < b[4]) == (a[5] < b[5])
print('pairs ranked as measured (>5%% apart): %d of %d' % (agree, total))
if len(sys.argv) > 3:
    for r in rows: print(*r)
