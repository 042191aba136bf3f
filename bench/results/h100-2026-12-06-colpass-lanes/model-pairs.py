#!/usr/bin/env python3
# The lanes' models against the timed pairs of calls 1 and 2 (pairs.json: for each point and side,
# the lanes codegen took, printed by builds instrumented with one fprintf in colsum_column_pass,
# the config, the [M,N] arrays, the instructions an element and the time). Prints, for each
# model, how many pairs it orders as they ran (a pair within 2% counts as ordered), by set:
# s82 = call 1 (the head against pending-fewest-turns.diff), fit/val/ex = call 2 (the head
# against the first form of the change, at call 1's points, at fresh points, at the explain
# cases): the 88 the constants were fitted to; val2 = call 3 (the head against the change kept,
# at fresh points), not fitted. usage: python3 model-pairs.py
import json, os
D = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'pairs.json')))
SM_BYTES_NS = 3027 * 0.9 / 132  # COLPASS_SM_MBS / 1000

def levels(x):
    l = 0
    while (1 << l) < x['rl']:
        l += 1
    return l

def model(x, access_ns, turn_ns, level_ns, ops_share):
    """colpass_misaligned_cost (heuristics/heuristics.h)"""
    n = x['nin'] + x['nout']
    edges = x['turns'] * (64 * n + 32 * x['nout']) if x['turns'] > 1 else 0
    t_bytes = x['ctas'] * x['M'] * (x['nj'] * 4 * x['isz'] * n + edges) / SM_BYTES_NS
    t_access = (x['ctas'] * x['warps'] * x['turns'] * x['trips'] * x['u'] * 4 * n * access_ns *
                (1 + ops_share * x['ops']))
    return max(t_bytes, t_access) + x['turns'] * (turn_ns + levels(x) * level_ns)

MODELS = {
    'the change (4 ns, 1 us a turn and a level, a 20th an instruction)': lambda x: model(x, 4, 1000, 1000, 0.05),
    'without the instructions\' share': lambda x: model(x, 4, 1000, 1000, 0),
    'bytes and accesses alone (5.25 ns; the first form)': lambda x: model(x, 5.25, 0, 0, 0),
    'the round trips (the head)': lambda x: x['turns'] * (x['trips'] + levels(x) / 4),
}
pairs = {}
for x in D:
    pairs.setdefault((x['set'], x['k'], x['d'], x['M'], x['N']), {})[x['side']] = x
for name, f in MODELS.items():
    by = {}
    for key, p in pairs.items():
        o, n = p['old'], p['new']
        if 'nocp' in o or 'nocp' in n:
            continue
        r = n['us'] / o['us']
        ok = abs(r - 1) < 0.02 or ((f(n) < f(o)) == (r < 1))
        a = by.setdefault(key[0], [0, 0])
        a[0] += ok
        a[1] += 1
    print('%-68s %d of %d  %s' % (name, sum(a for a, b in by.values()), sum(b for a, b in by.values()),
                                  ' '.join('%s %d/%d' % (k, a, b) for k, (a, b) in sorted(by.items()))))
