#!/usr/bin/env python3
# The lanes' model with a share of the shorter term (COLPASS_OVERLAP) against the 110 timed pairs
# of h100-2026-12-06-colpass-lanes (its pairs.json: sets s82, fit, val, ex fitted there; val2, its
# call 3, not). Prints, for each share, how many pairs it orders as they ran (a pair within 2%
# counted as ordered), by set. usage: python3 model-pairs.py
import json, os
HERE = os.path.dirname(os.path.abspath(__file__))
D = json.load(open(os.path.join(HERE, '..', 'h100-2026-12-06-colpass-lanes', 'pairs.json')))
SM_BYTES_NS = 3027 * 0.9 / 132  # COLPASS_SM_MBS / 1000


def levels(x):
    l = 0
    while (1 << l) < x['rl']:
        l += 1
    return l


def model(x, share):
    """colpass_misaligned_cost (heuristics/heuristics.h), the shorter term at `share`"""
    n = x['nin'] + x['nout']
    edges = x['turns'] * (64 * n + 32 * x['nout']) if x['turns'] > 1 else 0
    t_bytes = x['ctas'] * x['M'] * (x['nj'] * 4 * x['isz'] * n + edges) / SM_BYTES_NS
    t_access = x['ctas'] * x['warps'] * x['turns'] * x['trips'] * x['u'] * 4 * n * 4 * (1 + x['ops'] / 20)
    return (max(t_bytes, t_access) + share * min(t_bytes, t_access) +
            x['turns'] * (1000 + levels(x) * 1000))


pairs = {}
for x in D:
    pairs.setdefault((x['set'], x['k'], x['d'], x['M'], x['N']), {})[x['side']] = x
for share in (0, 0.1, 0.25, 0.5, 1):
    by = {}
    for key, p in pairs.items():
        o, n = p['old'], p['new']
        if 'nocp' in o or 'nocp' in n:
            continue
        r = n['us'] / o['us']
        ok = abs(r - 1) < 0.02 or ((model(n, share) < model(o, share)) == (r < 1))
        a = by.setdefault(key[0], [0, 0])
        a[0] += ok
        a[1] += 1
    fitted = sum(a for k, (a, b) in by.items() if k != 'val2')
    print('share %.2f: fitted sets %d of %d, val2 %d of %d  (%s)' %
          (share, fitted, sum(b for k, (a, b) in by.items() if k != 'val2'), by['val2'][0], by['val2'][1],
           ' '.join('%s %d/%d' % (k, a, b) for k, (a, b) in sorted(by.items()))))
