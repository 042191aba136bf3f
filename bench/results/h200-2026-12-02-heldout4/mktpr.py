"""Points for bench/ab.sh: tiny-row picks whose threads hold 8 or more elements of a row, against
the same config with twice the warps a CTA (so twice the threads a row, the same rows a CTA and
CTAs, min_ctas halved: the same warps an SM). usage: mktpr.py RKC > points.txt"""
import json, subprocess, sys
keys = "ahead cluster colpass coop dynamic evict grid m_block min_ctas num_warps persistent r_block smem split stash steps vec".split()
pts = []
d = json.load(open("testdata/shapes/tiny_rows.json"))
for e in d["kernels"]:
    for M, N in e["shapes"]:
        for dt in ("fp32", "bf16"):
            pts.append((f"testdata/kernels/{e['kernel']}.rk", dt, M, N))
for k in ("linf_norm", "l2norm", "mse", "asym_quant", "masked_bce", "gelu_layernorm", "focal_ce", "dequant"):
    for M, N in ((1048576, 32), (262144, 64)):
        for dt in ("fp32", "bf16"):
            pts.append((f"bench/heldout/{k}.rk", dt, M, N))
for f, dt, M, N in pts:
    j = json.loads(subprocess.check_output([sys.argv[1], "explain", f, "--shape", f"{M}x{N}", "--dtype", dt, "--json"]))
    if not j["persistent"] or j["grid"] or j["num_warps"] * 2 > 32:
        continue
    tpr = j["num_warps"] * 32 // j["m_block"]
    if tpr >= 32 or j["r_block"] // tpr < 8:
        continue
    c = {x: int(j[x]) for x in keys}
    c["num_warps"] *= 2
    c["min_ctas"] = max(1, c["min_ctas"] // 2)
    print(f"{f} {dt} {M}x{N} pick " + ",".join(f"{x}={c[x]}" for x in keys))
