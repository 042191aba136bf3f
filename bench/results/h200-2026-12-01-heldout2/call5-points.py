"""The suite points whose pick moves between two builds: OLD (the H100 target as committed) and
NEW (the same source with heuristics/targets/sm_90.json's hbm_gbps 4274 and l2_bytes 62914560,
the H200's copy bandwidth and L2). usage: call5-points.py OLD_RKC NEW_RKC > points"""
import json, subprocess, glob, os, sys
from concurrent.futures import ThreadPoolExecutor
KN = "persistent,r_block,m_block,num_warps,vec,split,evict,min_ctas,smem,cluster,coop,grid,dynamic,ahead,stash,steps".split(",")
jobs = []
for f in sorted(glob.glob("testdata/shapes/*.json")):
    d = json.load(open(f))
    for k in d["kernels"]:
        for s in k["shapes"]:
            M = 1
            for x in s[:-1]: M *= x
            for dt in ("bf16", "fp32"):
                jobs.append((k["kernel"], "%dx%d" % (M, s[-1]), dt))
jobs = sorted(set(jobs))
def pick(b, k, s, dt):
    r = subprocess.run([b, "explain", "testdata/kernels/%s.rk" % k, "--shape", s, "--dtype", dt, "--json"], capture_output=True, text=True)
    if r.returncode: return None
    d = json.loads(r.stdout)
    return ",".join("%s=%d" % (n, int(d[n])) for n in KN), d["modelled_us"]
def one(j):
    a = pick(sys.argv[1], *j); b = pick(sys.argv[2], *j)
    return j, a, b
with ThreadPoolExecutor(2) as ex:
    res = list(ex.map(one, jobs))
n = moved = 0
for (k, s, dt), a, b in res:
    if not a or not b: continue
    n += 1
    if a[0] != b[0]:
        moved += 1
        print(k, dt, s, a[0], b[0])
print("# %d points, %d moved" % (n, moved), file=sys.stderr)
