# usage: fresh.py OLD_RKC NEW_RKC M,M,.. N,N,.. KERNEL.rk...: the same at fresh shapes of the kernels given, bf16 and fp32; with SLICES=1 the slice (explain's "sums N vectors") too
import sys, json, re, subprocess, os
from concurrent.futures import ThreadPoolExecutor
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
env = dict(os.environ, PATH='/usr/local/cuda/bin:' + os.environ['PATH'])
LAN = re.compile(os.environ.get('SLICES') and r'sums (\d+) vectors of 4 columns.*\((\d+) threads a row, (?:.*?, )?(\d+) rows a trip\)' or r'\((\d+) threads a row, (?:.*?, )?(\d+) rows a trip\)')
def ex(b, p, dt, s):
    r = subprocess.run([b, 'explain', '--json', p, '--dtype', dt, '--shape', s],
                       capture_output=True, text=True, env=env, cwd=ROOT)
    if r.returncode: return None
    d = json.loads(r.stdout)
    lan = None
    for x in d['reasons']:
        x = x if isinstance(x, str) else json.dumps(x)
        m = LAN.search(x)
        if m and 'colpass=1' in x: lan = m.groups()
    return d['config_short'], lan
ks = sys.argv[5:]
Ms = [int(x) for x in sys.argv[3].split(',')]; Ns = [int(x) for x in sys.argv[4].split(',')]
pts = [(k, dt, '%dx%d' % (m, n)) for k in ks for dt in ('bf16', 'fp32') for m in Ms for n in Ns]
def one(p): return p, ex(sys.argv[1], *p), ex(sys.argv[2], *p)
with ThreadPoolExecutor(2) as e:
    for p, a, b in e.map(one, pts):
        if a is None or b is None: continue
        if a != b:
            print(os.path.basename(p[0])[:-3], p[1], p[2], '|', a[0], a[1], '->', b[0], b[1], flush=True)
