#!/usr/bin/env python3
"""The model's ranking over `rkc tune` logs: the measured time of the candidate it ranks first
(ties: their geomean) over the best, by geomean, for each build given. Run from the repository
root. usage: regret.py OUT.json RKC[:ENV=V;ENV=V] ... -- DIR...
"""
import json, math, os, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
sys.path.insert(0, "bench/results/h200-2026-11-29-math-term")
from fit_math import long_config
HEAD = re.compile(r"^(\S+) (bf16|fp16|f16|fp32|f32) (\d+)x(\d+): ")
ROW = re.compile(r"^\s*\d+\s+\S+\s+(.+?)\s{2,}(\S+)\s+(\S+)\s+(\S+)%\s+(\d+)\s+(\d+)\s+(ok|unchecked)\b")
def kpath(k):
    for d in ("testdata/kernels", "bench/heldout"):
        p = f"{d}/{k}.rk"
        if os.path.exists(p): return p
def read_logs(dirs):
    logs = []
    for d in dirs:
        for root, _, files in os.walk(d):
            for fn in sorted(files):
                path = os.path.join(root, fn)
                if not fn.endswith(".txt"): continue
                lines = open(path, errors="replace").read().splitlines()
                if not any(l.startswith("rank  cand  config") for l in lines): continue
                # a file may hold several logs
                cur = None
                for l in lines:
                    h = HEAD.match(l)
                    if h:
                        if cur and len(cur[5]) >= 2: logs.append(cur)
                        k, dt, M, N = h.groups()
                        cur = (path, k, dt, int(M), int(N), [])
                        continue
                    m = ROW.match(l)
                    if m and cur:
                        try: cfg = long_config(m.group(1).strip())
                        except Exception: continue
                        cur[5].append((cfg, float(m.group(3)), int(m.group(6))))
                if cur and len(cur[5]) >= 2: logs.append(cur)
    return [l for l in logs if kpath(l[1])]
def modelled(var, k, dt, M, N, cfg):
    rkc, env = var
    r = subprocess.run([rkc, "explain", kpath(k), "--shape", f"{M}x{N}", "--dtype", dt, "--json", "--config", cfg],
                       capture_output=True, text=True, env=dict(os.environ, **env))
    if r.returncode: return None
    return json.loads(r.stdout)["modelled_us"]
def main():
    i = sys.argv.index("--")
    out, vars_, dirs = sys.argv[1], sys.argv[2:i], sys.argv[i+1:]
    V = []
    for v in vars_:
        rkc, _, e = v.partition(":")
        env = dict(x.split("=") for x in e.split(";") if x)
        V.append((rkc, env))
    logs = read_logs(dirs)
    print(f"{len(logs)} logs, {sum(len(l[5]) for l in logs)} candidates")
    jobs = [(vi, l[1], l[2], l[3], l[4], c) for vi in range(len(V)) for l in logs for c, _, _ in l[5]]
    with ThreadPoolExecutor(max_workers=2) as ex:
        res = list(ex.map(lambda j: modelled(V[j[0]], *j[1:]), jobs))
    R = {}
    for j, r in zip(jobs, res): R[j] = r
    json.dump({"logs": logs, "res": [[list(j), r] for j, r in R.items()]}, open(out, "w"))
    for vi, v in enumerate(V):
        regrets, worst = [], []
        for path, k, dt, M, N, rows in logs:
            pts = [(R[(vi, k, dt, M, N, c)], us) for c, us, _ in rows if R[(vi, k, dt, M, N, c)] is not None]
            if len(pts) < 2: continue
            best = min(u for _, u in pts); mm = min(m for m, _ in pts)
            tied = [u for m, u in pts if m <= mm * 1.001]
            pick = math.exp(sum(map(math.log, tied)) / len(tied))
            regrets.append(pick / best); worst.append((pick / best, f"{k} {dt} {M}x{N}"))
        g = math.exp(sum(map(math.log, regrets)) / len(regrets))
        print(f"{v}: {len(regrets)} logs regret {g:.4f} within5% {sum(r<=1.05 for r in regrets)} worst {sorted(worst)[-3:]}")
main()
