#!/usr/bin/env python3
"""How many CTAs an SM ptxas fits each golden pick in, against the min_ctas the policy planned.

For every point of a golden file (testdata/golden/rkc-ARCH.json) it compiles the pick's PTX with
rkc, then assembles it with ptxas (CUDA's, from PATH) under `.minnctapersm k` for k from the
pick's min_ctas up to the most a CTA's warps allow (stopping at the first spill past k + 1), and once
with no `.minnctapersm` at all (ptxas's own choice). From the registers it reports how many CTAs
an SM each fits (the register cap of docs/heuristics.md, "The register model", and the shared
memory the manifest and ptxas name; never more than the grid's waves need), and writes a points
file for bench/ab.sh: each pick whose most CTAs an SM with no spill is above its own, the pick
against the same config at that min_ctas (grid, cooperative and clustered picks left out: their
CTA count is sized from min_ctas, so the A/B would change more than the register cap).

usage: bench/ptxas_fit.py [--rkc RKC] [--arch sm_90] [--golden FILE] [--invariant] [--workdir DIR]
                          [--points OUT.txt] [--per-kernel N] [--seed S]
    --per-kernel N: at most N points a kernel and dtype in the points file, drawn with --seed
    (default: every one). Prints a summary and the table of points where ptxas fits more.
No GPU: ptxas only.
"""
import argparse
import collections
import json
import math
import os
import random
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KNOBS = ["persistent", "r_block", "m_block", "num_warps", "vec", "split", "evict", "min_ctas",
         "smem", "cluster", "coop", "grid", "dynamic", "ahead", "stash", "steps", "colpass"]
SMS = 132          # the H100 and H200 the results were measured on
REGS_SM = 65536
SMEM_SM = 228 * 1024
WARPS_SM = 64
CTAS_SM = 32


def reg_cap(k, warps):
    """ptxas's register cap a thread under `.minnctapersm k` (one sub-partition's share)."""
    return min(255, REGS_SM // 4 // (math.ceil(k * warps / 4) * 32)) // 8 * 8


def ctas_at(regs, warps, smem):
    """CTAs an SM at regs registers a thread and smem bytes of shared memory a CTA."""
    best = 0
    for k in range(1, CTAS_SM + 1):
        if k * warps > WARPS_SM or (smem and k * smem > SMEM_SM):
            break
        if reg_cap(k, warps) >= regs:
            best = k
    return best


def assemble(ptx, arch, k):
    """(registers, spill store bytes, static shared bytes) of ptx under .minnctapersm k (0: no
    directive)."""
    with open(ptx) as f:
        text = re.sub(r"^\.minnctapersm \d+\n", "", f.read(), flags=re.M)
    if k:
        text = re.sub(r"(\.maxntid[^\n]*\n)", r"\1.minnctapersm %d\n" % k, text, count=1)
    tmp = f"{ptx}.k{k}.ptx"
    with open(tmp, "w") as f:
        f.write(text)
    err = subprocess.run(["ptxas", f"-arch={arch}", "-v", tmp, "-o", os.devnull],
                         capture_output=True, text=True).stderr
    os.remove(tmp)
    regs = int(re.search(r"Used (\d+) registers", err).group(1))
    spill = int(re.search(r"(\d+) bytes spill stores", err).group(1))
    smem = re.search(r"(\d+) bytes smem", err)
    return regs, spill, int(smem.group(1)) if smem else 0


def study(args, p):
    name = f"{p['kernel']}-{p['dtype']}-{p['M']}x{p['N']}"
    ptx = os.path.join(args.workdir, name + ".ptx")
    extra = ["--batch-invariant"] if args.invariant else []
    subprocess.run([args.rkc, "compile", os.path.join(ROOT, "testdata", "kernels", p["kernel"] + ".rk"),
                    "--dtype", p["dtype"], "--shape", f"{p['M']}x{p['N']}", "--arch", args.arch,
                    "-o", ptx] + extra, check=True, capture_output=True)
    with open(ptx[:-4] + ".json") as f:
        man = json.load(f)
    warps, k0 = p["num_warps"], p["min_ctas"]
    grid = man["grid"]
    ctas = int(grid.get("x_value", grid["x"])) * int(grid.get("y", 1)) * int(grid.get("z", 1))
    waves = max(1, math.ceil(ctas / SMS))
    at = {}
    for k in range(max(1, k0), WARPS_SM // warps + 1):
        at[k] = assemble(ptx, args.arch, k)
        if k > k0 + 1 and at[k][1]:
            break
    smem = int(man.get("dynamic_smem", 0) or 0) + at[k0][2]
    fits = [k for k, v in at.items() if v[1] == 0]
    kfit = max(fits) if fits else k0
    own = assemble(ptx, args.arch, 0)
    return {"point": p, "name": name, "warps": warps, "k0": k0, "at": at, "kfit": kfit,
            "ctas_k0": min(ctas_at(at[k0][0], warps, smem), waves),
            "ctas_fit": min(ctas_at(at[kfit][0], warps, smem), waves),
            "own": own, "ctas_own": min(ctas_at(own[0], warps, smem), waves),
            "config": man["config"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rkc", default=os.path.join(ROOT, "build", "rkc"))
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--golden", default="")
    ap.add_argument("--invariant", action="store_true", help="the batch-invariant golden file")
    ap.add_argument("--workdir", default=os.path.join(ROOT, "bench", "out", "ptxas_fit"))
    ap.add_argument("--points", default="")
    ap.add_argument("--per-kernel", type=int, default=0)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    golden = args.golden or os.path.join(
        ROOT, "testdata", "golden", f"rkc-{'invariant-' if args.invariant else ''}{args.arch}.json")
    os.makedirs(args.workdir, exist_ok=True)
    with open(golden) as f:
        points = json.load(f)["points"]
    with ThreadPoolExecutor(os.cpu_count() or 1) as ex:
        res = list(ex.map(lambda p: study(args, p), points))

    more = [r for r in res if r["ctas_fit"] > r["ctas_k0"]]
    own_more = [r for r in res if r["ctas_own"] > r["ctas_k0"] and r["own"][1] == 0]
    own_less = [r for r in res if r["ctas_own"] < r["ctas_k0"]]
    print(f"{len(res)} {args.arch} picks of {os.path.relpath(golden, ROOT)}; ptxas spills at the "
          f"pick's own min_ctas: {sum(r['at'][r['k0']][1] > 0 for r in res)}")
    print(f"fit in more CTAs an SM with no spill: {len(more)} (by "
          f"{dict(sorted(collections.Counter(r['ctas_fit'] - r['ctas_k0'] for r in more).items()))})")
    print(f"with no .minnctapersm, ptxas's own count: more CTAs an SM (no spill) {len(own_more)}, "
          f"fewer {len(own_less)}")
    print(f"\n{'point':44} {'w':>3} {'k0':>3} {'regs':>4} {'ctas':>4} | {'k':>3} {'regs':>4} "
          f"{'ctas':>4} | own {'regs':>4} {'ctas':>4} | pred")
    for r in sorted(more, key=lambda r: r["name"]):
        print(f"{r['name']:44} {r['warps']:>3} {r['k0']:>3} {r['at'][r['k0']][0]:>4} "
              f"{r['ctas_k0']:>4} | {r['kfit']:>3} {r['at'][r['kfit']][0]:>4} {r['ctas_fit']:>4} | "
              f"    {r['own'][0]:>4} {r['ctas_own']:>4} | {r['point']['predicted_regs']}")
    if not args.points:
        return
    sel = [r for r in more if not r["config"].get("grid") and not r["config"].get("coop")
           and r["config"].get("cluster", 1) == 1]
    if args.per_kernel:
        rng = random.Random(args.seed)
        by = collections.defaultdict(list)
        for r in sel:
            by[r["point"]["kernel"] + r["point"]["dtype"]].append(r)
        sel = []
        for key in sorted(by):
            rng.shuffle(by[key])
            sel += by[key][:args.per_kernel]
    lines = []
    for r in sel:
        p = dict(r["point"], min_ctas=r["kfit"])
        cfg = ",".join(f"{k}={int(p.get(k, 0))}" for k in KNOBS)
        size = 2 if p["dtype"] in ("bf16", "fp16") else 4
        inv = " --batch-invariant" if args.invariant else ""
        lines.append((p["M"] * p["N"] * size,
                      f"{p['kernel']} {p['dtype']} {p['M']}x{p['N']} pick {cfg}{inv}"))
    with open(args.points, "w") as f:
        f.write(f"# {len(lines)} {args.arch} picks: the pick against min_ctas at the most CTAs an "
                f"SM where ptxas fits it with no spill\n")
        for _, line in sorted(lines):
            f.write(line + "\n")
    print(f"\n{len(lines)} points written to {args.points}")


if __name__ == "__main__":
    main()
