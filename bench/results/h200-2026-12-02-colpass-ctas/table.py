import sys, re, collections
rows = collections.OrderedDict()
for ln in open(sys.argv[1]):
    if '|' not in ln: continue
    head, res = ln.split('|', 1)
    k, d, s, c = head.split()
    m = re.search(r'us=([0-9.]+)', res); r = re.search(r'regs=(\d+)', res); l = re.search(r'local=(\d+)', res)
    rows.setdefault((k.split('/')[-1].replace('.rk',''), d, s), {})[c] = (float(m.group(1)) if m else None, r and r.group(1), l and l.group(1))
cfgs = []
for v in rows.values():
    for c in v:
        if c not in cfgs: cfgs.append(c)
print('%-34s' % 'point' + ''.join('%9s' % c[:9] for c in cfgs) + '  best/pick')
for key, v in rows.items():
    p = v.get('pick', (None,))[0]
    ts = [v.get(c, (None,))[0] for c in cfgs]
    good = [t for t in ts if t]
    print('%-34s' % ' '.join(key) + ''.join('%9s' % ('%.2f' % t if t else '-') for t in ts) + ('  %.3f' % (min(good) / p) if p and good else ''))
print()
print('regs/local:')
for key, v in rows.items():
    print('%-34s' % ' '.join(key) + ''.join('%9s' % ('%s/%s' % (v[c][1], v[c][2]) if c in v else '-') for c in cfgs))
