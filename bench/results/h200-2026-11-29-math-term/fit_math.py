#!/usr/bin/env python3
"""A math term for the cost model against measured tune logs (not shipped: ../h200-2026-11-29-math-term.md).

Reads every `rkc tune` log under the given directories (the table of candidates each timed on a
GPU), asks `rkc explain --json --config` for each candidate's modelled time at each value of
warp_op_ns (the environment's RKC_FIT_OPNS, read by an rkc with math-term.diff applied and
built with -DRKC_FIT; RKC_FIT_ISSUE sets issue_ns the same way), and
prints, per value, how the model's ranking of each log's candidates fares against the measured
times: the measured time of the candidate the model ranks first over the measured best (the
regret), its geomean over the logs and the logs within 5%, and the rank correlation.

usage: fit_math.py RKC OPNS[,OPNS...] DIR...
"""
import json
import math
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HEAD = re.compile(r"^(\S+) (bf16|fp16|f16|fp32|f32) (\d+)x(\d+): ")
ROW = re.compile(r"^\s*\d+\s+\S+\s+(.+?)\s{2,}(\S+)\s+(\S+)\s+(\S+)%\s+(\d+)\s+(\d+)\s+ok\b")


def long_config(short):
    """config_short (heuristics/config.c) back to --config's keys."""
    kv = {"split": 1, "cluster": 1, "smem": 0, "stash": 0, "grid": 0, "dynamic": 0, "ahead": 0,
          "evict": 0, "min_ctas": 1, "coop": 0}
    toks = short.split()
    i = 0
    if toks[0] == "P":
        kv["persistent"] = 1
        kv["r_block"] = int(toks[1][1:])
        i = 2
    else:
        kv["persistent"] = 0
        kv["r_block"] = int(toks[0][1:])
        i = 1
    for t in toks[i:]:
        if t == "Sa":
            kv["smem"] = 2
        elif t == "S":
            kv["smem"] = 1
        elif t == "st":
            kv["stash"] = 1
        elif t == "a":
            kv["ahead"] = 1
        elif t == "e":
            kv["evict"] = 1
        elif t.startswith("gd"):
            kv["grid"], kv["dynamic"] = int(t[2:]), 1
        elif t[0] == "g":
            kv["grid"] = int(t[1:])
        elif t[0] == "m":
            kv["m_block"] = int(t[1:])
        elif t[0] == "w":
            kv["num_warps"] = int(t[1:])
        elif t[0] == "v":
            kv["vec"] = int(t[1:])
        elif t[0] == "s":
            kv["split"] = int(t[1:])
        elif t[0] == "c":
            kv["cluster"] = int(t[1:])
        elif t[0] == "x":
            kv["cluster"], kv["coop"] = int(t[1:]), 1
        elif t[0] == "k":
            kv["min_ctas"] = int(t[1:])
        else:
            raise ValueError(f"config token {t!r} in {short!r}")
    return ",".join(f"{k}={v}" for k, v in kv.items())


def read_logs(dirs):
    logs = []
    for d in dirs:
        for root, _, files in os.walk(d):
            for fn in sorted(files):
                path = os.path.join(root, fn)
                try:
                    lines = open(path, errors="replace").read().splitlines()
                except OSError:
                    continue
                if not any(l.startswith("rank  cand  config") for l in lines):
                    continue
                head = next((HEAD.match(l) for l in lines if HEAD.match(l)), None)
                if not head:
                    continue
                rows = []
                for l in lines:
                    m = ROW.match(l)
                    if m and int(m.group(6)) == 0:  # no spills: the model's spill term aside
                        rows.append((m.group(1).strip(), float(m.group(3))))
                if len(rows) >= 2:
                    k, dt, M, N = head.groups()
                    logs.append((path, k, dt, int(M), int(N), rows))
    return logs


def modelled(rkc, opns, k, dt, M, N, short):
    env = dict(os.environ, RKC_FIT_OPNS=str(opns))
    r = subprocess.run([rkc, "explain", f"testdata/kernels/{k}.rk", "--shape", f"{M}x{N}",
                        "--dtype", dt, "--json", "--config", long_config(short)],
                       capture_output=True, text=True, env=env)
    if r.returncode:
        return None
    return json.loads(r.stdout)["modelled_us"]


def spearman(a, b):
    def ranks(x):
        order = sorted(range(len(x)), key=lambda i: x[i])
        r = [0] * len(x)
        for pos, i in enumerate(order):
            r[i] = pos
        return r
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    d = sum((x - y) ** 2 for x, y in zip(ra, rb))
    return 1 - 6 * d / (n * (n * n - 1)) if n > 2 else 0.0


def main():
    rkc, opns_list, dirs = sys.argv[1], [float(x) for x in sys.argv[2].split(",")], sys.argv[3:]
    logs = read_logs(dirs)
    print(f"{len(logs)} logs, {sum(len(l[5]) for l in logs)} candidates without spills")
    jobs = [(o, l[1], l[2], l[3], l[4], c) for o in opns_list for l in logs for c, _ in l[5]]
    with ThreadPoolExecutor(max_workers=int(os.environ.get("JOBS", "2"))) as ex:
        res = dict(zip(jobs, ex.map(lambda j: modelled(rkc, *j), jobs)))
    print(f"{'warp_op_ns':>10} {'logs':>5} {'regret geomean':>15} {'within 5%':>10} "
          f"{'worst':>7} {'spearman':>9}")
    for o in opns_list:
        regrets, rhos, worst = [], [], (1.0, "")
        for path, k, dt, M, N, rows in logs:
            pts = [(res[(o, k, dt, M, N, c)], us) for c, us in rows
                   if res[(o, k, dt, M, N, c)] is not None]
            if len(pts) < 2:
                continue
            best = min(us for _, us in pts)
            pick = min(pts)[1]
            regrets.append(pick / best)
            rhos.append(spearman([m for m, _ in pts], [u for _, u in pts]))
            if pick / best > worst[0]:
                worst = (pick / best, f"{k} {dt} {M}x{N}")
        g = math.exp(sum(math.log(r) for r in regrets) / len(regrets))
        within = sum(r <= 1.05 for r in regrets)
        print(f"{o:>10g} {len(regrets):>5} {g:>15.4f} {within:>5}/{len(regrets):<4} "
              f"{worst[0]:>7.3f} {sum(rhos) / len(rhos):>9.3f}  worst: {worst[1]}")


if __name__ == "__main__":
    main()
