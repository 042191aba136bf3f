# usage: lanes.py OLD_RKC NEW_RKC: the points on record (bench/replay.py) whose pick or column-pass lanes (explain's "N threads a row") differ; with SLICES=1 the slice (explain's "sums N vectors") too
import sys, json, re, subprocess, os
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, 'bench'))
import replay
from concurrent.futures import ThreadPoolExecutor
times = replay.load(os.path.join(ROOT, 'bench/results'), 'h', '0000-00-00')
env = dict(os.environ, PATH='/usr/local/cuda/bin:' + os.environ['PATH'])
LAN = re.compile(os.environ.get('SLICES') and r'sums (\d+) vectors of 4 columns.*\((\d+) threads a row, (?:.*?, )?(\d+) rows a trip\)' or r'\((\d+) threads a row, (?:.*?, )?(\d+) rows a trip\)')
def ex(b, point):
    k, dt, M, N = point
    p = replay.kernel_file(k)
    r = subprocess.run([b, 'explain', '--json', p, '--dtype', dt, '--shape', '%dx%d' % (M, N)],
                       capture_output=True, text=True, env=env, cwd=ROOT)
    if r.returncode: return None
    d = json.loads(r.stdout)
    lan = None
    for x in d['reasons']:
        m = LAN.search(x if isinstance(x, str) else json.dumps(x))
        if m and 'colpass=1' in (x if isinstance(x, str) else json.dumps(x)):
            lan = m.groups()
    return d['config_short'], lan
pts = [p for p in sorted(times) if replay.kernel_file(p[0])]
def one(p):
    return p, ex(sys.argv[1], p), ex(sys.argv[2], p)
with ThreadPoolExecutor(2) as e:
    for p, a, b in e.map(one, pts):
        if a is None or b is None: continue
        if a != b:
            print(p[0], p[1], '%dx%d' % (p[2], p[3]), '|', a[0], a[1], '->', b[0], b[1], flush=True)
