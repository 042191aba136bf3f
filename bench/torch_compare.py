#!/usr/bin/env python3
"""rkc against torch.compile on the same GPU, inputs and process.

For each kernel: a PyTorch definition of the same math (testdata/kernels/*.rk; compute in f32,
outputs in the kernel's types) compiled with torch.compile (default mode, dynamic=False), and
rkc's PTX (`rkc compile`) loaded with CuPy's RawModule and launched per its manifest on the
same torch tensors. Both are timed as CUDA-graph replays under triton's do_bench (median; it
flushes the L2 before every call). rkc's outputs are checked against the definition run in
float64 first.

usage: bench/torch_compare.py [--rkc RKC] [--dtype bf16] [--kernels a,b] [--shapes-per-kernel 3]
                              [--csv FILE] [--workdir DIR]
"""
import argparse
import statistics
import csv
import json
import math
import os
import subprocess
import sys
import warnings

import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TORCH_DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32,
                "i64": torch.int64, "i32": torch.int32, "i8": torch.int8}


# The 17 kernels, each the .rk file's math: inputs in storage types, params as floats; returns
# the outputs by name. Arithmetic is in f32 as in rkc, or in f64 when given f64 inputs (the
# reference the check compares against).

def up(t):
    return t if t.dtype == torch.float64 else t.float()


def rms_norm(x, w, eps):
    xf = up(x)
    r = torch.rsqrt((xf * xf).mean(-1, keepdim=True) + eps)
    return {"y": (xf * r * up(w)).to(x.dtype), "rstd": r.squeeze(-1)}


def layer_norm(x, w, b, eps):
    xf = up(x)
    mu = xf.mean(-1, keepdim=True)
    d = xf - mu
    r = torch.rsqrt((d * d).mean(-1, keepdim=True) + eps)
    return {"y": (d * r * up(w) + up(b)).to(x.dtype), "mean": mu.squeeze(-1),
            "rstd": r.squeeze(-1)}


def softmax(x):
    return {"y": torch.softmax(up(x), -1).to(x.dtype)}


def sum_(x):
    return {"s": up(x).sum(-1).to(x.dtype)}


def cross_entropy(x, t):
    xf = up(x)
    lse = torch.logsumexp(xf, -1)
    return {"loss": lse - xf.gather(1, t[:, None]).squeeze(1)}


def kl_div(y_pred, y_true, eps):
    p = up(y_true)
    return {"loss": (p * (torch.log(torch.clamp_min(p, eps)) - up(y_pred))).sum(-1)}


def jsd(X, Y):
    x, y = up(X), up(Y)
    q, p = torch.exp(x), torch.exp(y)
    m = torch.log(0.5 * p + 0.5 * q)
    dx = 0.5 * q * (x - m)
    return {"loss": (0.5 * p * (y - m) + dx).sum(-1), "dX": dx.to(X.dtype)}


def welford(x, w, b, eps):
    xf = up(x)
    var, mu = torch.var_mean(xf, -1, correction=0, keepdim=True)
    r = torch.rsqrt(var + eps)
    return {"y": ((xf - mu) * r * up(w) + up(b)).to(x.dtype), "mean": mu.squeeze(-1),
            "rstd": r.squeeze(-1)}


def fused_add_rmsnorm(x, res, w, eps):
    h = up(x) + up(res)
    r = torch.rsqrt((h * h).mean(-1, keepdim=True) + eps)
    return {"h": h.to(x.dtype), "y": (h * r * up(w)).to(x.dtype)}


def fused_add_layernorm(x, res, w, b, eps):
    h = up(x) + up(res)
    d = h - h.mean(-1, keepdim=True)
    r = torch.rsqrt((d * d).mean(-1, keepdim=True) + eps)
    return {"h": h.to(x.dtype), "y": (d * r * up(w) + up(b)).to(x.dtype)}


def gated_rmsnorm(x, z, w, eps):
    g = up(x) * F.silu(up(z))
    r = torch.rsqrt((g * g).mean(-1, keepdim=True) + eps)
    return {"y": (g * r * up(w)).to(x.dtype)}


def scaled_masked_softmax(x, mask, scale):
    return {"y": torch.softmax(up(x) * scale + up(mask), -1).to(x.dtype)}


def cross_entropy_ls_zloss(x, t, ls, z):
    xf = up(x)
    lse = torch.logsumexp(xf, -1)
    nll = lse - xf.gather(1, t[:, None]).squeeze(1)
    return {"loss": (1 - ls) * nll + ls * (lse - xf.mean(-1)) + z * lse * lse}


def dynamic_quant(x):
    xf = up(x)
    s = xf.abs().amax(-1, keepdim=True) / 127
    return {"q": torch.round(xf / s).clamp(-128, 127).to(torch.int8), "s": s.squeeze(-1)}


def grpo(x, t, old, ref, adv, temp, beta):
    xs = up(x) / temp
    lse = torch.logsumexp(xs, -1)
    logp = xs.gather(1, t[:, None]).squeeze(1) - lse
    c = torch.exp(logp - up(old))
    a = up(adv)
    pg = -torch.minimum(c * a, torch.clamp(c, 0.8, 1.4) * a)
    d = up(ref) - logp
    return {"loss": pg + beta * (torch.exp(d) - d - 1), "lse": lse}


def fused_linear_jsd(student, teacher):
    xs = torch.log_softmax(up(student), -1)
    xt = torch.log_softmax(up(teacher), -1)
    q, p = torch.exp(xs), torch.exp(xt)
    m = torch.log(0.5 * p + 0.5 * q)
    g = 0.5 * q * (xs - m)
    sg = g.sum(-1, keepdim=True)
    return {"loss": (0.5 * p * (xt - m)).sum(-1) + sg.squeeze(-1),
            "dS": (g - q * sg).to(student.dtype)}


DEFS = {f.__name__.rstrip("_"): f for f in [
    rms_norm, layer_norm, softmax, sum_, cross_entropy, kl_div, jsd, welford, fused_add_rmsnorm,
    fused_add_layernorm, gated_rmsnorm, scaled_masked_softmax, cross_entropy_ls_zloss,
    dynamic_quant, grpo, fused_linear_jsd]}
DEFS["long_sum"] = sum_


def make_input(spec, p, M, N, made, gen):
    """One input by its testdata/inputs.json distribution, on the GPU in its storage type."""
    shape = {"[M,N]": (M, N), "[M]": (M,), "[N]": (N,)}[p["shape"]]
    dt = TORCH_DTYPES[p["type"]]
    kind = spec["dist"]
    dev = "cuda"
    if kind == "labels":
        return torch.randint(0, N, shape, device=dev, generator=gen, dtype=dt)
    if kind == "selected_log_prob":
        x, t, temp = made[spec["logits"]], made[spec["labels"]], spec.get("temperature", 1.0)
        out = torch.empty(shape, device=dev, dtype=torch.float32)
        for i in range(0, M, 256):  # row blocks: no [M, N] f32 temporary for a huge vocabulary
            xs = x[i:i + 256].float() / temp
            lp = xs.gather(1, t[i:i + 256, None]).squeeze(1) - torch.logsumexp(xs, -1)
            out[i:i + 256] = lp
        noise = torch.randn(shape, device=dev, generator=gen) * spec.get("std", 0.1)
        return (out + noise).to(dt)
    if kind == "bernoulli":
        return (torch.rand(shape, device=dev, generator=gen) < spec.get("frac", 0.5)).to(dt)
    if kind == "mask":
        m = torch.rand(shape, device=dev, generator=gen) < spec.get("frac", 0.3)
        return torch.where(m, spec.get("value", -1e4), 0.0).to(dt)
    out = torch.empty(shape, device=dev, dtype=dt)
    rows = out.view(-1, shape[-1])
    step = max(1, (1 << 26) // shape[-1])  # f32 temporaries of at most 256 MB
    for i in range(0, rows.shape[0], step):
        blk = rows[i:i + step]
        if kind == "uniform":
            lo, hi = spec.get("lo", -1.0), spec.get("hi", 1.0)
            v = torch.rand(blk.shape, device=dev, generator=gen) * (hi - lo) + lo
        else:
            std = spec.get("std", 2.0 if kind in ("logits", "log_probs", "probs") else 1.0)
            v = torch.randn(blk.shape, device=dev, generator=gen) * std + spec.get("mean", 0.0)
            if kind == "log_probs":
                v = torch.log_softmax(v, -1)
            elif kind == "probs":
                v = torch.softmax(v, -1)
        blk.copy_(v)
    return out


def graph_us(fn):
    """Median GPU time of a CUDA-graph replay of fn, the L2 flushed before each (do_bench)."""
    import triton.testing
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    torch.cuda.synchronize()
    return triton.testing.do_bench(g.replay, warmup=25, rep=200, return_mode="median") * 1e3


def copy_gbps():
    """Device-to-device copy bandwidth, bytes read plus written, as rkc run measures it: a plain
    1 GiB copy (a memcpy) timed with events, median of 20. (A graph-replayed byte copy under do_bench runs
    far below the memcpy engine's rate and would inflate every percentage.)"""
    n = 1 << 30
    a = torch.empty(n, dtype=torch.uint8, device="cuda").fill_(7)
    b = torch.empty_like(a)
    times = []
    for i in range(23):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        b.copy_(a)
        end.record()
        end.synchronize()
        if i >= 3:
            times.append(start.elapsed_time(end))
    del a, b
    return 2 * n / (statistics.median(times) * 1e-3) / 1e9


def rel_l2(out, ref):
    o, r = out.double(), ref.double()
    den = torch.linalg.vector_norm(r).item()
    num = torch.linalg.vector_norm(o - r).item()
    return num / den if den > 0 else num


def tolerance(table, kernel, index, dtype):
    mine = table["kernels"].get(kernel, {})
    if index == 0 and dtype in mine.get("first_output", {}):
        return mine["first_output"][dtype]
    return mine.get(dtype, table["default"][dtype])


def pick_shapes(shapes, n):
    """n shapes spread by size, always the largest."""
    s = sorted(shapes, key=lambda sh: sh[0] * sh[1])
    if len(s) <= n:
        return s
    return [s[round(i * (len(s) - 1) / (n - 1))] for i in range(n)]


def suite_shapes():
    out = {}
    for suite in ("core", "transfer"):
        with open(os.path.join(ROOT, "testdata", "shapes", f"{suite}.json")) as f:
            for k in json.load(f)["kernels"]:
                # (B, L, V) is M = B*L rows of V
                out[k["kernel"]] = [(sh[0] * sh[1], sh[2]) if len(sh) == 3 else tuple(sh)
                                    for sh in k["shapes"]]
    return out


def compile_rkc(rkc, kernel, M, N, dtype, workdir):
    ptx = os.path.join(workdir, f"{kernel}.{dtype}.{M}x{N}.ptx")
    subprocess.run([rkc, "compile", os.path.join(ROOT, "testdata", "kernels", kernel + ".rk"),
                    "--shape", f"{M}x{N}", "--dtype", dtype, "-o", ptx], check=True)
    with open(ptx[:-4] + ".json") as f:
        return ptx, json.load(f)


def rkc_launcher(ptx, man, tensors):
    """A function that launches rkc's kernel on the tensors, on torch's current stream."""
    import cupy
    import numpy as np
    fn = cupy.RawModule(path=ptx).get_function(man["entry"])
    args = []
    for p in man["params"]:
        if p["kind"] in ("in", "out", "workspace"):
            args.append(np.uint64(tensors[p["name"]].data_ptr()))
        elif p["kind"] == "param":
            args.append(np.float32(p["default"]))
        elif p["kind"] == "dim":
            v = man["M"] if p["name"] == "M" else man["N"]
            args.append(np.int64(v) if p["type"] == "i64" else np.int32(v))
    grid = (man["grid"]["x_value"], man["grid"].get("y", 1), man["grid"].get("z", 1))
    block = (man["block"]["x"], man["block"].get("y", 1), man["block"].get("z", 1))
    smem = man.get("dynamic_smem", 0)

    def launch():
        with cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            fn(grid, block, tuple(args), shared_mem=smem)
    return launch


def run_point(args, kernel, M, N, inputs_spec, tols, gbps, gen):
    ptx, man = compile_rkc(args.rkc, kernel, M, N, args.dtype, args.workdir)
    spec = inputs_spec["kernels"].get(kernel, {})
    made, params, outs = {}, {}, {}
    order = sorted((p for p in man["params"] if p["kind"] == "in"),
                   key=lambda p: spec.get(p["name"], {}).get("dist") == "selected_log_prob")
    for p in order:
        d = spec.get(p["name"]) or inputs_spec["default"]["int" if p["type"].startswith("i") else "float"]
        made[p["name"]] = make_input(d, p, M, N, made, gen)
    for p in man["params"]:
        if p["kind"] == "param":
            params[p["name"]] = float(p["default"])
        elif p["kind"] == "out":
            shape = {"[M,N]": (M, N), "[M]": (M,), "[N]": (N,)}[p["shape"]]
            outs[p["name"]] = torch.empty(shape, dtype=TORCH_DTYPES[p["type"]], device="cuda")
        elif p["kind"] == "workspace":
            outs[p["name"]] = torch.zeros(p["bytes"], dtype=torch.uint8, device="cuda")
    mbytes = sum(t.numel() * t.element_size() for n, t in list(made.items()) + list(outs.items())
                 if n != "workspace") / 1e6
    # inputs in manifest order for the definition
    inputs = {p["name"]: made[p["name"]] for p in man["params"] if p["kind"] == "in"}
    launch = rkc_launcher(ptx, man, {**made, **outs})

    # correctness first: rkc's outputs against the definition in float64 on a spread of rows
    for n, t in outs.items():
        if n != "workspace":
            t.fill_(float("nan") if t.is_floating_point() else 0)
    launch()
    torch.cuda.synchronize()
    rows = torch.linspace(0, M - 1, min(M, 256), device="cuda").round().long().unique()

    def sample(name, t):
        return t[rows] if man_shape(man, name) in ("[M,N]", "[M]") else t
    ref = DEFS[kernel](**{n: (lambda v: v.double() if v.is_floating_point() else v)(sample(n, t))
                          for n, t in inputs.items()}, **params)
    errs, ok = [], True
    for i, n in enumerate(p["name"] for p in man["params"] if p["kind"] == "out"):
        got = sample(n, outs[n])
        if got.dtype == torch.int8:
            e = (got.double() - ref[n].double()).abs().max().item()
            ok &= e <= 1
        else:
            e = rel_l2(got, ref[n])
            ok &= e <= tolerance(tols, kernel, i, args.dtype)
        errs.append(e)

    compiled = torch.compile(DEFS[kernel], dynamic=False, fullgraph=True)
    tc_us = graph_us(lambda: compiled(**inputs, **params))
    rkc_us = graph_us(launch)
    cfg = man.get("config", {})
    res = {"kernel": kernel, "dtype": args.dtype, "M": M, "N": N, "mbytes": round(mbytes, 1),
           "rkc_us": round(rkc_us, 2), "torch_us": round(tc_us, 2),
           "speedup": round(tc_us / rkc_us, 3),
           "rkc_pct_copy": round(100 * mbytes * 1e6 / (rkc_us * 1e-6) / 1e9 / gbps, 1),
           "torch_pct_copy": round(100 * mbytes * 1e6 / (tc_us * 1e-6) / 1e9 / gbps, 1),
           "rkc_ok": "ok" if ok else "FAIL", "rkc_max_err": f"{max(errs):.2e}",
           "config": " ".join(f"{k}={v}" for k, v in cfg.items())}
    del made, outs, inputs, ref, compiled
    torch._dynamo.reset()
    torch.cuda.empty_cache()
    return res


def man_shape(man, name):
    return [p for p in man["params"] if p["name"] == name][0]["shape"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rkc", default=os.environ.get("RKC", os.path.join(ROOT, "rkc")))
    ap.add_argument("--dtype", default="bf16", choices=["bf16", "f16", "f32"])
    ap.add_argument("--kernels", default="", help="comma-separated; default all 17")
    ap.add_argument("--shapes-per-kernel", type=int, default=3)
    ap.add_argument("--csv", default=os.path.join(os.environ.get("OUT", "."), "torch_compare.csv"))
    ap.add_argument("--workdir", default=os.path.join(os.environ.get("OUT", "."), "ptx"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--copy-gbps", type=float, default=0,
                    help="copy bandwidth for the %% columns (default: measured, as rkc run does)")
    args = ap.parse_args()
    # CuPy 14 deprecates ExternalStream, once per launch; it still does what is needed here.
    warnings.filterwarnings("ignore", category=DeprecationWarning, module=__name__)
    os.makedirs(args.workdir, exist_ok=True)
    with open(os.path.join(ROOT, "testdata", "inputs.json")) as f:
        inputs_spec = json.load(f)
    with open(os.path.join(ROOT, "testdata", "tolerances.json")) as f:
        tols = json.load(f)
    shapes = suite_shapes()
    kernels = [k for k in (args.kernels.split(",") if args.kernels else DEFS) if k]
    gen = torch.Generator(device="cuda").manual_seed(args.seed)
    gbps = args.copy_gbps or copy_gbps()
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, copy {gbps:.0f} GB/s",
          flush=True)
    results = []
    for k in kernels:
        for M, N in pick_shapes(shapes[k], args.shapes_per_kernel):
            try:
                r = run_point(args, k, M, N, inputs_spec, tols, gbps, gen)
            except Exception as e:  # one bad point must not lose the rest of the table
                print(f"{k} {M}x{N}: ERROR {type(e).__name__}: {e}", flush=True)
                r = {"kernel": k, "dtype": args.dtype, "M": M, "N": N, "rkc_ok": "ERROR"}
                torch._dynamo.reset()
                torch.cuda.empty_cache()
            results.append(r)
            print(",".join(str(r.get(c, "")) for c in ("kernel", "M", "N", "rkc_us", "torch_us",
                                                       "speedup", "rkc_ok")), flush=True)
    cols = ["kernel", "dtype", "M", "N", "mbytes", "rkc_us", "torch_us", "speedup",
            "rkc_pct_copy", "torch_pct_copy", "rkc_ok", "rkc_max_err", "config"]
    with open(args.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
        w.writeheader()
        w.writerows(results)
    timed = [r for r in results if "speedup" in r]
    print(f"\n{'kernel':24} {'M':>6} {'N':>7} {'MB':>7} {'rkc us':>9} {'tc us':>9} {'speedup':>7} "
          f"{'rkc %cp':>7} {'tc %cp':>7} check")
    for r in results:
        if "speedup" in r:
            print(f"{r['kernel']:24} {r['M']:>6} {r['N']:>7} {r['mbytes']:>7} {r['rkc_us']:>9} "
                  f"{r['torch_us']:>9} {r['speedup']:>7} {r['rkc_pct_copy']:>7} "
                  f"{r['torch_pct_copy']:>7} {r['rkc_ok']}")
        else:
            print(f"{r['kernel']:24} {r['M']:>6} {r['N']:>7} ERROR")

    def gm(xs):
        xs = [x for x in xs if x > 0]
        return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
    print(f"geomean over {len(timed)} points: speedup {gm([r['speedup'] for r in timed]):.3f}, "
          f"rkc {gm([r['rkc_pct_copy'] for r in timed]):.1f}% of copy, "
          f"torch.compile {gm([r['torch_pct_copy'] for r in timed]):.1f}%; "
          f"checks failed: {sum(r['rkc_ok'] != 'ok' for r in results)}; csv: {args.csv}")


if __name__ == "__main__":
    main()
