"""A/B points for the lines a warp access touches: at short rows where the pick's persistent row
covers less than a 128-byte line per warp access (threads a row x vec x input bytes), the pick
against the same config over twice the warps (twice the threads a row, half the elements a
thread), every knob given, for bench/ab.sh.
usage: tprpts.py RKC > points"""
import json, subprocess, glob, random, sys
from concurrent.futures import ThreadPoolExecutor
KN = "persistent r_block m_block num_warps vec split evict min_ctas smem cluster coop grid dynamic ahead stash steps colpass".split()
SHAPES = ["1048576x32", "524288x40", "393216x48", "262144x64", "262144x96", "131072x128",
          "65536x32", "100003x64", "65536x128", "131072x200", "100003x256"]
R = sys.argv[1]
def explain(k, s, dt, cfg=None):
    a = [R, 'explain', k, '--shape', s, '--dtype', dt, '--json'] + (['--config', cfg] if cfg else [])
    r = subprocess.run(a, capture_output=True, text=True)
    return json.loads(r.stdout) if r.returncode == 0 else None
ks = sorted(glob.glob('testdata/kernels/*.rk')) + sorted(glob.glob('bench/heldout/*.rk'))
jobs = [(k, s, dt) for k in ks for s in SHAPES for dt in ('bf16', 'fp32')]
cfg = lambda x: ",".join(f"{n}={int(x[n])}" for n in KN)
def one(j):
    a = explain(*j)
    if not a or not a['persistent'] or 'colsum' in open(j[0]).read() or a['num_warps'] * 2 > 32:
        return None
    eb = 2 if j[2] == 'bf16' else 4
    tpr = a['num_warps'] * 32 // a['m_block'] // max(1, a['split'])
    if tpr * a['vec'] * eb >= 128 or a['r_block'] // tpr < 2 * a['vec']:
        return None
    b = dict(a)
    b['num_warps'] *= 2
    bb = explain(*j, ",".join(f"{n}={int(b[n])}" for n in KN if n != 'min_ctas'))
    if not bb:
        return None
    return f"{j[0]} {j[2]} {j[1]} {cfg(a)} {cfg(bb)}"
with ThreadPoolExecutor(2) as ex:
    out = [x for x in ex.map(one, jobs) if x]
random.seed(7); random.shuffle(out)
print("\n".join(out))
