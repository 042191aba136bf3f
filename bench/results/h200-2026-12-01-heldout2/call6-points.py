"""Points whose min_ctas caps ptxas below the model's predicted registers: the pick (old) against
the same config at the largest min_ctas whose cap holds the prediction (new).
usage: cap_pts.py RKC > points"""
import json, subprocess, glob, sys
from concurrent.futures import ThreadPoolExecutor
KN = "persistent,r_block,m_block,num_warps,vec,split,evict,min_ctas,smem,cluster,coop,grid,dynamic,ahead,stash,steps".split(",")
rkc = sys.argv[1]
def lim(k, w):
    return min(255, 16384 // ((-(-k * w // 4)) * 32) // 8 * 8)
jobs = []
for f in sorted(glob.glob("testdata/shapes/*.json")) + ["bench/heldout/shapes.json"]:
    d = json.load(open(f))
    kdir = "bench/heldout" if "heldout" in f else "testdata/kernels"
    for k in d["kernels"]:
        for s in k["shapes"]:
            M = 1
            for x in s[:-1]: M *= x
            for dt in ("bf16", "fp32"):
                jobs.append(("%s/%s.rk" % (kdir, k["kernel"]), "%dx%d" % (M, s[-1]), dt))
jobs = sorted(set(jobs))
def one(j):
    r = subprocess.run([rkc, "explain", j[0], "--shape", j[1], "--dtype", j[2], "--json"], capture_output=True, text=True)
    return j, (json.loads(r.stdout) if r.returncode == 0 else None)
with ThreadPoolExecutor(2) as ex:
    res = list(ex.map(one, jobs))
n = 0
for (k, s, dt), d in res:
    if not d: continue
    n += 1
    w, mc, regs = d["num_warps"], d["min_ctas"], d["predicted_regs"]
    if mc <= 1 or lim(mc, w) >= regs: continue
    k2 = mc - 1
    while k2 > 1 and lim(k2, w) < regs: k2 -= 1
    new = dict(d); new["min_ctas"] = k2
    cfg = lambda x: ",".join("%s=%d" % (n, int(x[n])) for n in KN)
    print(k, dt, s, cfg(d), cfg(new))
    print("# %s %s %s regs %d: min_ctas %d caps %d, %d caps %d" % (k, dt, s, regs, mc, lim(mc, w), k2, lim(k2, w)), file=sys.stderr)
print("# %d points" % n, file=sys.stderr)
