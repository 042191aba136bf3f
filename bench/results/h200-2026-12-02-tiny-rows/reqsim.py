"""Bytes a request to L2 carries, old config and new, at each point of an A/B log (call 3), and the
new/old time by those bytes: a warp access's row parts (lanes x vec x the tile's bytes) over rows
of N x bytes, simulated over 256 rows; a request is one 128-byte line an access touches.
usage: reqsim.py ab.txt.gz   (run from the repository root: it reads the kernels' .rk files)"""
import collections, glob, gzip, json, math, re, sys
SZ = {'f32': 4, 'bf16': 2, 'f16': 2, 'i8': 1, 'f8e4m3': 1, 'f8e5m2': 1, 'i32': 4, 'i64': 8, 'bool': 1}
def tiles(path, dt):
    out = []
    for l in open(path):
        m = re.match(r'\s*(in|out)\s+\w+\s*:\s*(\w+)\[M,\s*N\]', l)
        if m:
            t = m.group(2)
            out.append((2 if dt == 'bf16' else 4) if t == 'T' else SZ.get(t, 4))
    return out
def per_request(cfg, N, sizes, rows=256):
    tpr = cfg['num_warps'] * 32 // cfg['m_block']
    lanes, vec = min(tpr, 32), cfg['vec']
    R = max(1, 32 // lanes)
    reqs = byts = 0
    for s in sizes:
        for r0 in range(0, rows, R):
            for a in range(math.ceil(cfg['r_block'] / (vec * tpr))):
                lines = set()
                for r in range(r0, r0 + R):
                    for l in range(lanes):
                        e0 = (a * lanes + l) * vec
                        if e0 < N:
                            st, en = r * N * s + e0 * s, r * N * s + min(N, e0 + vec) * s
                            lines.update(range(st // 128, (en - 1) // 128 + 1))
                reqs += len(lines)
        byts += rows * N * s
    return byts / reqs
pts, cfgs = collections.defaultdict(lambda: {'old': [], 'new': []}), {}
for l in gzip.open(sys.argv[1], 'rt'):
    m = re.match(r'(old|new) #\d+ \S+\s+\| RESULT kernel=(\S+) dtype=(\S+) M=(\d+) N=(\d+).* us=([\d.]+).*config=(.*)$', l)
    if m:
        tag, k, dt, M, N, us, cfg = m.groups()
        key = (k, dt, int(M), int(N))
        pts[key][tag].append(float(us))
        cfgs[key, tag] = json.loads(cfg)
paths = {p.split('/')[-1][:-3]: p for p in glob.glob('testdata/kernels/*.rk') + glob.glob('bench/heldout/*.rk')}
groups = collections.defaultdict(list)
for key, v in pts.items():
    if v['old'] and v['new']:
        sizes = tiles(paths[key[0]], key[1])
        b0, b1 = (per_request(cfgs[key, t], key[3], sizes) for t in ('old', 'new'))
        ratio = min(v['new']) / min(v['old'])
        print('%.3f %-24s %-4s %8d %4d bytes a request %5.1f -> %5.1f' % ((ratio,) + key + (b0, b1)))
        groups['32' if round(b0) == 32 else '64' if round(b0) == 64 else 'other'].append(ratio)
for g, r in sorted(groups.items()):
    print('old %s bytes a request: %d points, new/old %.3f by geomean, %d faster by over 2%%, %d slower'
          % (g, len(r), math.exp(sum(map(math.log, r)) / len(r)), sum(x < 0.98 for x in r), sum(x > 1.02 for x in r)))
