#!/usr/bin/env python3
"""Per point (kernel dtype MxN) the configs the H200 A/B runs under bench/results timed; the
model's choice among them against the measured best (ties: the geomean of the tied), by geomean.
Run from the repository root. usage: abfit.py RKC[:ENV=V;ENV=V] ...  (each a build and its
environment: the fitting builds read their constants from it; the shipped one reads none)"""
import json, math, os, re, subprocess, sys, gzip, glob, collections
from concurrent.futures import ThreadPoolExecutor
RES = re.compile(r"RESULT kernel=(\S+) dtype=(\S+) M=(\d+) N=(\d+) status=(\S+) .*? us=([\d.]+) .*?config=(\{.*?\})")
def kpath(k):
    for d in ("testdata/kernels", "bench/heldout"):
        p = f"{d}/{k}.rk"
        if os.path.exists(p): return p
def cfgstr(j):
    d = json.loads(j)
    return ",".join(f"{k}={int(v) if not isinstance(v,bool) else int(v)}" for k, v in d.items())
pts = collections.defaultdict(lambda: collections.defaultdict(list))
for f in glob.glob("bench/results/h200-*/**/*.gz", recursive=True):
    try: txt = gzip.open(f, "rt", errors="replace").read()
    except Exception: continue
    for m in RES.finditer(txt):
        k, dt, M, N, st, us, cfg = m.groups()
        if st not in ("ok", "unchecked") or not kpath(k) or float(us) <= 0: continue
        pts[(k, dt, int(M), int(N))][cfgstr(cfg)].append(float(us))
pts = {p: {c: min(v) for c, v in d.items()} for p, d in pts.items() if len(d) >= 2}
print(len(pts), "points with 2+ configs", sum(len(d) for d in pts.values()), "configs", file=sys.stderr)
def modelled(var, p, cfg):
    rkc, env = var
    k, dt, M, N = p
    r = subprocess.run([rkc, "explain", kpath(k), "--shape", f"{M}x{N}", "--dtype", dt, "--json", "--config", cfg],
                       capture_output=True, text=True, env=dict(os.environ, **env))
    if r.returncode: return None
    return json.loads(r.stdout)["modelled_us"]
V = []
for v in sys.argv[1:]:
    rkc, _, e = v.partition(":")
    V.append((rkc, dict(x.split("=") for x in e.split(";") if x)))
jobs = [(vi, p, c) for vi in range(len(V)) for p, d in pts.items() for c in d]
with ThreadPoolExecutor(max_workers=2) as ex:
    res = dict(zip(jobs, ex.map(lambda j: modelled(V[j[0]], j[1], j[2]), jobs)))
for vi, v in enumerate(V):
    regrets = []; worst = []
    for p, d in pts.items():
        xs = [(res[(vi, p, c)], u, c) for c, u in d.items() if res[(vi, p, c)] is not None]
        if len(xs) < 2: continue
        best = min(u for _, u, _ in xs); mm = min(m for m, _, _ in xs)
        tied = [u for m, u, _ in xs if m <= mm * 1.001]
        pick = math.exp(sum(map(math.log, tied)) / len(tied))  # ties: their geomean, not the best
        regrets.append(pick / best); worst.append((round(pick / best, 3), p))
    g = math.exp(sum(map(math.log, regrets)) / len(regrets))
    print(f"{v[1]}: {len(regrets)} pts regret {g:.4f} within2% {sum(r<=1.02 for r in regrets)} worst {sorted(worst)[-4:]}")
