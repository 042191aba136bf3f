"""rkc explain --ptxas over every sm_90 golden pick: the CTAs an SM at ptxas's registers against the
model's (each no more than the grid's waves need), and the picks ptxas spills. usage: python3
explain_scan.py (from the source root, with build/rkc built)"""
import json, subprocess, collections, math
from concurrent.futures import ThreadPoolExecutor
g = json.load(open("testdata/golden/rkc-sm_90.json"))["points"]
def one(p):
    out = subprocess.run(["build/rkc", "explain", f"testdata/kernels/{p['kernel']}.rk", "--dtype", p["dtype"], "--shape", f"{p['M']}x{p['N']}", "--ptxas", "--json"], capture_output=True, text=True)
    d = json.loads(out.stdout)
    return p, d
with ThreadPoolExecutor(2) as ex:
    res = list(ex.map(one, g))
c = collections.Counter()
rows = []
for p, d in res:
    pc, mc = d["ptxas"]["ctas_per_sm"], d["cost"]["ctas_per_sm"]
    waves_ctas = math.ceil(d["cost"]["ctas"] / 132)
    eff_p, eff_m = min(pc, waves_ctas), min(mc, waves_ctas)
    k = "same" if eff_p == eff_m else ("fewer" if eff_p < eff_m else "more")
    c[k] += 1
    rows.append((k, p["kernel"], p["dtype"], f"{p['M']}x{p['N']}", d["ptxas"]["regs"], d["predicted_regs"], pc, mc, waves_ctas, d["ptxas"]["spill_stores"]))
print(c)
print("spilling:", [r for r in rows if r[9]])
for r in sorted(rows):
    if r[0] != "same": print(r)
print("columns: verdict, kernel, dtype, shape, ptxas regs, predicted regs, ptxas CTAs an SM, model CTAs an SM, CTAs the waves need, spill store bytes")
