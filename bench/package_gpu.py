#!/usr/bin/env python3
"""The Python package on the GPU: every kernel of testdata/kernels called from PyTorch through
`rkc` (python/), on a contiguous and on a sliced input, checked against the float64 torch
definition in bench/torch_compare.py (imported, not copied), timed as CUDA-graph replays as
torch_compare times (triton's do_bench, L2 flushed), beside torch.compile; and a torch.compile'd
function calling an rkc kernel, checked for graph breaks. One short table at the end.

Carrying it to a GPU host without LLVM (python3 with torch, no network). Here:
    cmake -S . -B build-rel -DRKC_STATIC=ON -DCMAKE_BUILD_TYPE=Release -DRKC_TESTS=OFF
    cmake --build build-rel -j2 --target rkc_shared
    RKC_LIB=build-rel/librkc.so python3 -m pip wheel --no-deps --no-index -w dist ./python
The wheel (dist/rkc-*-py3-none-linux_x86_64.whl) holds librkc.so (LLVM inside) and the
libjansson and libzstd it loads. Copy it and the repository (bench/, testdata/) to the host. There:
    python3 -m pip install --no-deps --no-index dist/rkc-*.whl   # or: --target DIR, PYTHONPATH=DIR
    python3 bench/package_gpu.py [--dtype bf16] [--kernels a,b] [--shape MxN]
librkc.so needs glibc 2.36 or newer (as the static rkc binary does). The cache goes to
$RKC_CACHE_DIR, else ~/.cache/rkc. Without an installed wheel, RKC_LIB=/path/librkc.so makes the
script import the package from python/ beside it.
"""
import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
try:
    import rkc
except ImportError:
    if not os.environ.get("RKC_LIB"):
        raise
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import rkc
import torch  # noqa: E402
import torch_compare as tc  # noqa: E402  (the definitions, inputs, checks and timing)

IR_DTYPE = {"bf16": "bf16", "fp16": "f16", "fp32": "f32"}


def representative(kernel):
    """The middle shape the kernel's suite gives it (as `rkc table` picks), else 4096x4096."""
    for suite in ("core", "transfer"):
        shapes = tc.suite_shapes(suite).get(kernel)
        if shapes:
            return shapes[len(shapes) // 2]
    return 4096, 4096


def make_inputs(k, M, N, dtype, spec, gen, pad_rows=0):
    """The kernel's inputs by testdata/inputs.json. pad_rows > 0: each [M,N] and [M] input is
    rows pad_rows.. of a larger tensor (the sliced case: contiguous rows at an offset)."""
    made = {}
    order = sorted(k.inputs, key=lambda p: spec.get(p["name"], {}).get("dist") ==
                   "selected_log_prob")  # made after the logits and labels it reads
    for p in order:
        q = dict(p, type=IR_DTYPE[dtype] if p["type"] == "T" else p["type"])
        d = spec.get(p["name"]) or INPUTS["default"]["int" if q["type"].startswith("i") else
                                                     "float"]
        rows = M + pad_rows if p["shape"] in ("[M,N]", "[M]") else M
        made[p["name"]] = tc.make_input(d, q, rows, N, made, gen)
    return {p["name"]: made[p["name"]][pad_rows:] if pad_rows and p["shape"] in ("[M,N]", "[M]")
            else made[p["name"]] for p in k.inputs}


def strided(inputs, N, extra=64):
    """Each [M,N] input as the first N columns of a wider tensor: rows with a stride."""
    out = {}
    for n, t in inputs.items():
        if t.dim() == 2 and t.shape[-1] == N:
            big = torch.zeros(t.shape[0], N + extra, dtype=t.dtype, device=t.device)
            big[:, :N] = t
            t = big[:, :N]
        out[n] = t
    return out


def check(k, outs, inputs, params, M, dtype, tols):
    """(ok, worst error) of the outputs against the float64 definition on a spread of rows."""
    if k.name not in tc.DEFS:
        return None, "no torch definition"
    rows = torch.linspace(0, M - 1, min(M, 256), device="cuda").round().long().unique()
    shape = {p["name"]: p["shape"] for p in k.params}

    def sample(n, t):
        return t[rows] if shape[n] in ("[M,N]", "[M]") else t
    ref = tc.DEFS[k.name](**{n: (lambda v: v.double() if v.is_floating_point() else v)(
        sample(n, t)) for n, t in inputs.items()}, **params)
    ok, worst = True, 0.0
    for i, (p, got) in enumerate(zip(k.outputs, outs)):
        g = sample(p["name"], got)
        if g.dtype == torch.int8:
            e = (g.double() - ref[p["name"]].double()).abs().max().item()
            ok &= e <= 1
        else:
            e = tc.rel_l2(g, ref[p["name"]])
            ok &= e <= tc.tolerance(tols, k.name, i, IR_DTYPE[dtype])
        ok &= not math.isnan(e)
        worst = max(worst, e)
    return ok, f"{worst:.1e}"


def run_kernel(path, dtype, shape, spec, tols, gen):
    k = rkc.load(path)
    M, N = shape or representative(k.name)
    params = {p["name"]: float(p["default"]) for p in k.scalars}
    row = {"kernel": k.name, "shape": f"{M}x{N}"}
    outs_of = {}
    for case, pad in (("contiguous", 0), ("sliced", None)):
        try:
            if pad is None:  # rows from an offset that keeps every row 16-byte aligned
                esize = torch.tensor([], dtype=tc.TORCH_DTYPES[IR_DTYPE[dtype]]).element_size()
                pad = 16 // math.gcd(N * esize, 16)
            inputs = make_inputs(k, M, N, dtype, spec.get(k.name, {}), gen, pad)
            outs = k(**inputs, **params)
            outs = list(outs) if isinstance(outs, tuple) else [outs]
            torch.cuda.synchronize()
            ok, err = check(k, outs, inputs, params, M, dtype, tols)
            row[case] = ("ok" if ok else "FAIL" if ok is not None else "ran") + f" {err}"
            if case == "contiguous":
                outs_of[case] = (inputs, outs)
        except Exception as e:  # one kernel's failure must not lose the table
            row[case] = f"ERROR {type(e).__name__}: {e}"[:120]
    # a column slice (rows with a stride): refused until strided rows land, else checked
    try:
        if "contiguous" not in outs_of:
            raise RuntimeError("no contiguous inputs")
        inputs = strided(outs_of["contiguous"][0], N)
        outs = k(**inputs, **params)
        torch.cuda.synchronize()
        ok, err = check(k, list(outs) if isinstance(outs, tuple) else [outs], inputs, params, M,
                        dtype, tols)
        row["strided"] = ("ok" if ok else "FAIL" if ok is not None else "ran") + f" {err}"
    except rkc.RkcError as e:
        row["strided"] = "refused" if "not contiguous" in str(e) else f"ERROR {e}"[:120]
    except Exception as e:
        row["strided"] = f"ERROR {type(e).__name__}: {e}"[:120]
    if "contiguous" in outs_of:
        inputs, _ = outs_of["contiguous"]
        row["rkc_us"] = tc.graph_us(lambda: k(**inputs, **params))
        if k.name in tc.DEFS:
            comp = torch.compile(tc.DEFS[k.name], dynamic=False, fullgraph=True)
            row["torch_us"] = tc.graph_us(lambda: comp(**inputs, **params))
            torch._dynamo.reset()
    torch.cuda.empty_cache()
    return row


def graph_breaks(dtype):
    """A torch.compile'd model function calling an rkc kernel: no graph break, same result."""
    k = rkc.load(os.path.join(ROOT, "testdata", "kernels", "rms_norm.rk"))
    t = tc.TORCH_DTYPES[IR_DTYPE[dtype]]
    x = torch.randn(256, 4096, device="cuda", dtype=t)
    w = torch.randn(4096, device="cuda", dtype=t)
    # an inference model: rkc's ops have no autograd formula yet, so no parameter needs a grad
    lin = torch.nn.Linear(4096, 4096, device="cuda", dtype=t).requires_grad_(False)

    def block(x):
        y, rstd = k(lin(x), w, eps=1e-6)
        return torch.relu(y) + rstd[:, None].to(y.dtype)
    torch._dynamo.reset()
    explained = torch._dynamo.explain(block)(x)
    eager = block(x)
    compiled = torch.compile(block, fullgraph=True)(x)  # fullgraph: a break is an error
    same = torch.allclose(eager.float(), compiled.float(), rtol=2e-2, atol=2e-2)
    return explained.graph_break_count, same


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dtype", default="bf16", choices=["bf16", "fp16", "fp32"])
    ap.add_argument("--kernels", default="", help="comma-separated names; default all")
    ap.add_argument("--shape", default="", help="MxN for every kernel (default: each its own)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    global INPUTS
    with open(os.path.join(ROOT, "testdata", "inputs.json")) as f:
        INPUTS = json.load(f)
    with open(os.path.join(ROOT, "testdata", "tolerances.json")) as f:
        tols = json.load(f)
    kdir = os.path.join(ROOT, "testdata", "kernels")
    names = args.kernels.split(",") if args.kernels else sorted(
        f[:-3] for f in os.listdir(kdir) if f.endswith(".rk"))
    shape = rkc.shape_of(args.shape) if args.shape else None
    gen = torch.Generator(device="cuda").manual_seed(args.seed)
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, rkc "
          f"{rkc.__version__} ({os.path.dirname(rkc.__file__)})", flush=True)
    rows = []
    for n in names:
        r = run_kernel(os.path.join(kdir, n + ".rk"), args.dtype, shape, INPUTS["kernels"],
                       tols, gen)
        print(json.dumps(r), flush=True)
        rows.append(r)
    breaks, same = graph_breaks(args.dtype)
    print(f"\n{'kernel':24} {'shape':14} {'contiguous':16} {'sliced rows':16} {'strided':10} "
          f"{'rkc us':>8} {'compile us':>10} {'speedup':>7}")
    bad = 0
    for r in rows:
        sp = (f"{r['torch_us'] / r['rkc_us']:.2f}x" if r.get("torch_us") and r.get("rkc_us")
              else "-")
        print(f"{r['kernel']:24} {r['shape']:14} {r['contiguous'][:16]:16} "
              f"{r['sliced'][:16]:16} {r['strided'][:10]:10} "
              f"{r.get('rkc_us', float('nan')):8.1f} {r.get('torch_us', float('nan')):10.1f} "
              f"{sp:>7}")
        bad += not (r["contiguous"].startswith(("ok", "ran")) and
                    r["sliced"].startswith(("ok", "ran")))
    print(f"\ntorch.compile(fullgraph=True) of a function calling rkc's rms_norm: "
          f"{breaks} graph break(s), result {'matches' if same else 'DIFFERS from'} eager")
    print(f"{len(rows) - bad} of {len(rows)} kernels correct on contiguous and sliced rows "
          f"({args.dtype}); strided rows: 'refused' until the package passes row strides")
    sys.exit(1 if bad or breaks or not same else 0)


if __name__ == "__main__":
    main()
