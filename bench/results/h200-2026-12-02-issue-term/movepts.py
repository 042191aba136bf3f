"""Points where two builds' picks differ: old's pick and new's, every knob, for bench/ab.sh.
usage: movepts.py OLD_RKC NEW_RKC > points"""
import json, subprocess, glob, random, sys
from concurrent.futures import ThreadPoolExecutor
KN = "persistent r_block m_block num_warps vec split evict min_ctas smem cluster coop grid dynamic ahead stash steps colpass".split()
SHAPES = ["1048576x16", "1048576x32", "524288x48", "393216x40", "262144x64", "200000x96", "150000x100",
          "262144x128", "131072x200", "100003x77", "65536x256", "32768x512", "16384x896", "8192x1000",
          "4096x2048", "2048x8192"]
def pick(rkc, k, s, dt):
    r = subprocess.run([rkc, 'explain', k, '--shape', s, '--dtype', dt, '--json'], capture_output=True, text=True)
    return json.loads(r.stdout) if r.returncode == 0 else None
ks = sorted(glob.glob('bench/heldout/*.rk')) + sorted(glob.glob('testdata/kernels/*.rk'))
jobs = [(k, s, dt) for k in ks for s in SHAPES for dt in ('bf16', 'fp32')]
def one(j):
    a, b = pick(sys.argv[1], *j), pick(sys.argv[2], *j)
    if a and b and a['config_short'] != b['config_short']:
        cfg = lambda x: ",".join(f"{n}={int(x[n])}" for n in KN)
        return f"{j[0]} {j[2]} {j[1]} {cfg(a)} {cfg(b)}"
with ThreadPoolExecutor(2) as ex:
    out = [x for x in ex.map(one, jobs) if x]
random.seed(5); random.shuffle(out)
print("\n".join(out))
