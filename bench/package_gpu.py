#!/usr/bin/env python3
"""The Python package on the GPU: every kernel of testdata/kernels called from PyTorch through
`rkc` (python/) on three layouts of its inputs, each checked against the float64 torch definition
in bench/torch_compare.py (imported, not copied):
  contiguous   dense tensors;
  row slice    every [M,N] and [M] input rows a.. of a larger tensor (x[a:a+M]): an offset base,
               a the fewest rows that keep each [M,N] input 16-byte aligned, so an i64 [M] input
               starts 8 bytes off 16 (its accesses need 8);
  column pad   every [M,N] input the first N columns of an (M, N+P) tensor (x_full[:, :N]): rows
               N+P elements apart, P the smallest multiple of the compile's stride_rule modulus
               that is at least 16; and the same with P = 1 where the rule forbids it, which the
               package must refuse with RkcError before launching.
Then the timing, side by side with `rkc run --time` at the same shape, dtype and arch (dense
rows), and with `rkc run --time --check --pad P` (the column-padded layout, its padding poisoned
and checked unwritten by rkc run): both timed the same way, the median of per-launch CUDA event
times, each launch after the L2 is flushed by reading a buffer twice its size (runtime/cuda.c's
method; here torch's max over the buffer, then torch.cuda._sleep so that the Python call is
queued before the start event, which then times the kernel alone), about 0.3 s of kernel time,
20 to 1000 launches. The configs are compared (the package's manifest against rkc run's). Then,
as before, a CUDA-graph replay of the contiguous call beside torch.compile (timed as
bench/torch_compare.py times both), and a torch.compile'd function calling an rkc kernel, checked
for graph breaks. One short table at the end.

Carrying it to a GPU host without LLVM (python3 with torch, no network). Here:
    cmake -S . -B build-rel -DRKC_STATIC=ON -DCMAKE_BUILD_TYPE=Release -DRKC_TESTS=OFF
    cmake --build build-rel -j2 --target rkc rkc_shared
    RKC_LIB=build-rel/librkc.so python3 -m pip wheel --no-deps --no-index -w dist ./python
The wheel (dist/rkc-*-py3-none-linux_x86_64.whl) holds librkc.so (LLVM inside) and the
libjansson and libzstd it loads; build-rel/rkc is the static rkc binary. Copy both and the
repository (bench/, testdata/) to the host. There:
    python3 -m pip install --no-deps --no-index dist/rkc-*.whl   # or: --target DIR, PYTHONPATH=DIR
    python3 bench/package_gpu.py [--rkc .carry/rkc] [--dtype bf16] [--kernels a,b] [--shape MxN]
librkc.so needs glibc 2.36 or newer (as the static rkc binary does). The cache goes to
$RKC_CACHE_DIR, else ~/.cache/rkc. Without an installed wheel, RKC_LIB=/path/librkc.so makes the
script import the package from python/ beside it. The wheel and the rkc binary must be built from
the same commit, or the configs (and so the times) may differ: the table says when they do.
"""
import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
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
from rkc import _cuda  # noqa: E402
import torch  # noqa: E402
import torch_compare as tc  # noqa: E402  (the definitions, inputs, checks and timing)

IR_DTYPE = {"bf16": "bf16", "fp16": "f16", "fp32": "f32"}
SLEEP_CYCLES = 1_000_000  # ~0.5 ms of GPU time: the Python call is queued before it ends


def representative(kernel):
    """The middle shape the kernel's suite gives it (as `rkc table` picks), else 4096x4096."""
    for suite in ("core", "transfer"):
        shapes = tc.suite_shapes(suite).get(kernel)
        if shapes:
            return shapes[len(shapes) // 2]
    return 4096, 4096


def esize(ir_type):
    return torch.tensor([], dtype=tc.TORCH_DTYPES[ir_type]).element_size()


def ir_type(p, dtype):
    return IR_DTYPE[dtype] if p["type"] == "T" else p["type"]


def make_inputs(k, M, N, dtype, spec, gen, skip_rows=0):
    """The kernel's inputs by testdata/inputs.json. skip_rows > 0: each [M,N] and [M] input is
    rows skip_rows.. of a larger tensor (the row slice: an offset base)."""
    made = {}
    order = sorted(k.inputs, key=lambda p: spec.get(p["name"], {}).get("dist") ==
                   "selected_log_prob")  # made after the logits and labels it reads
    for p in order:
        q = dict(p, type=ir_type(p, dtype))
        d = spec.get(p["name"]) or INPUTS["default"]["int" if q["type"].startswith("i") else
                                                     "float"]
        rows = M + skip_rows if p["shape"] in ("[M,N]", "[M]") else M
        made[p["name"]] = tc.make_input(d, q, rows, N, made, gen)
    return {p["name"]: made[p["name"]][skip_rows:] if skip_rows and p["shape"] in ("[M,N]", "[M]")
            else made[p["name"]] for p in k.inputs}


def slice_rows(k, N, dtype):
    """The fewest rows a > 0 that keep every [M,N] input 16-byte aligned at row a."""
    a = 1
    for p in k.inputs:
        if p["shape"] == "[M,N]":
            need = 16 // math.gcd(N * esize(ir_type(p, dtype)), 16)
            a = a * need // math.gcd(a, need)
    return a


def padded(k, inputs, N, pad):
    """Each [M,N] input as the first N columns of an (M, N+pad) tensor, the padding NaN (or -1
    for integers): rows N+pad elements apart."""
    out = dict(inputs)
    for p in k.inputs:
        t = inputs[p["name"]]
        if p["shape"] != "[M,N]":
            continue
        fill = float("nan") if t.is_floating_point() else -1
        big = torch.full((t.shape[0], N + pad), fill, dtype=t.dtype, device=t.device) \
            if t.dtype not in tc.FP8 else torch.empty((t.shape[0], N + pad), dtype=t.dtype,
                                                      device=t.device)
        big[:, :N] = t
        out[p["name"]] = big[:, :N]
    return out


def check(k, outs, inputs, params, M, dtype, tols):
    """(ok, worst error) of the outputs against the float64 definition on a spread of rows."""
    if k.name not in tc.DEFS:
        return None, "no torch definition"
    rows = torch.linspace(0, M - 1, min(M, 256), device="cuda").round().long().unique()
    if any(p["shape"] == "[N]" for p in k.outputs):
        rows = torch.arange(M, device="cuda")  # a sum over rows is checked on all of them
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


def call(k, inputs, params):
    outs = k(**inputs, **params)
    return list(outs) if isinstance(outs, tuple) else [outs]


def flushed_us(fn):
    """rkc run's timing (runtime/cuda.c gpu_time) of fn's GPU work: per launch, the L2 flushed by
    reading a buffer twice its size, then events around the launch; the median over about
    0.3 s of kernel time (20 to 1000 launches, from the median of 5). A spin on the GPU between
    the flush and the start event keeps the Python call's own time out of the interval."""
    def times(n):
        ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(n)]
        for a, b in ev:
            tc.flush_l2()
            torch.cuda._sleep(SLEEP_CYCLES)
            a.record()
            fn()
            b.record()
        torch.cuda.synchronize()
        return [a.elapsed_time(b) for a, b in ev]
    fn()
    est = statistics.median(times(5))
    n = min(1000, max(20, int(300.0 / est) if est > 0 else 1000))
    return statistics.median(times(n)) * 1e3


def rkc_run(binary, path, M, N, dtype, arch, pad=0):
    """`rkc run --time` at the shape (with --pad: also --check): (us, config, status)."""
    cmd = [binary, "run", path, "--shape", f"{M}x{N}", "--dtype", dtype, "--arch", arch,
           "--time", "--copy-gbps", "1", "--json"]
    if pad:
        cmd += ["--check", "--pad", str(pad)]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        err = (r.stderr.strip() or f"exit {r.returncode}").splitlines()
        return None, None, f"ERROR {err[-1] if err else ''}"[:100]
    o = json.loads(lines[-1])
    if o.get("status") == "ERROR":
        return None, None, f"ERROR {o.get('error', '')}"[:100]
    return o.get("us"), o.get("config"), o.get("status")


def run_case(row, case, k, inputs, params, M, dtype, tols):
    """Calls the kernel on inputs and checks it: row[case] is 'ok ERR', 'FAIL ERR', 'ran' or
    the error. True when the outputs are right (or unchecked)."""
    try:
        outs = call(k, inputs, params)
        torch.cuda.synchronize()
        ok, err = check(k, outs, inputs, params, M, dtype, tols)
        row[case] = ("ok" if ok else "FAIL" if ok is not None else "ran") + f" {err}"
        return ok is not False
    except Exception as e:  # one kernel's failure must not lose the table
        row[case] = f"ERROR {type(e).__name__}: {e}"[:160]
        return False


def run_kernel(path, dtype, shape, spec, tols, gen, binary):
    k = rkc.load(path)
    M, N = shape or representative(k.name)
    params = {p["name"]: float(p["default"]) for p in k.scalars}
    row = {"kernel": k.name, "shape": f"{M}x{N}"}
    arch = _cuda.driver().arch(torch.cuda.current_device())
    c = k.compile((M, N), dtype, arch)
    mod = c.manifest["stride_rule"]["modulus"]
    pad = -(-16 // mod) * mod
    row["pad"] = pad
    good = True

    # (a) contiguous
    inputs = make_inputs(k, M, N, dtype, spec.get(k.name, {}), gen)
    good &= run_case(row, "contiguous", k, inputs, params, M, dtype, tols)
    if row["contiguous"].startswith(("ok", "ran")):
        row["pkg_us"] = flushed_us(lambda: call(k, inputs, params))
        row["graph_us"] = tc.graph_us(lambda: k(**inputs, **params))
        if k.name in tc.DEFS:
            comp = torch.compile(tc.DEFS[k.name], dynamic=False, fullgraph=True)
            row["torch_us"] = tc.graph_us(lambda: comp(**inputs, **params))
            torch._dynamo.reset()

    # (c) column padded: rows N+pad apart; then a pad the stride rule forbids, refused
    wide = padded(k, inputs, N, pad)
    good &= run_case(row, "col_pad", k, wide, params, M, dtype, tols)
    if row["col_pad"].startswith(("ok", "ran")):
        row["pkg_pad_us"] = flushed_us(lambda: call(k, wide, params))
    del wide
    if mod > 1:
        try:
            call(k, padded(k, inputs, N, 1), params)
            row["bad_pad"] = "ACCEPTED"
            good = False
        except rkc.RkcError as e:
            ok = "breaks the manifest's stride rule" in str(e)
            row["bad_pad"] = "refused" if ok else f"ERROR {e}"[:120]
            good &= ok
    else:
        row["bad_pad"] = "n/a"
    del inputs
    torch.cuda.empty_cache()

    # (b) row slice: an offset base
    a = slice_rows(k, N, dtype)
    row["slice_at"] = a
    sliced = make_inputs(k, M, N, dtype, spec.get(k.name, {}), gen, a)
    good &= run_case(row, "row_slice", k, sliced, params, M, dtype, tols)
    del sliced
    torch.cuda.empty_cache()

    # rkc run at the same shape, dense and padded
    cfg = c.manifest["config"]
    us, rcfg, status = rkc_run(binary, path, M, N, dtype, arch)
    row["run_us"], row["run_status"] = us, status
    us, rcfg2, status = rkc_run(binary, path, M, N, dtype, arch, pad)
    row["run_pad_us"], row["run_pad_status"] = us, status
    good &= status == "ok"
    row["same_config"] = rcfg == cfg and rcfg2 == cfg
    if not row["same_config"]:
        row["configs"] = {"package": cfg, "rkc_run": rcfg, "rkc_run_pad": rcfg2}
    row["good"] = bool(good)
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


def default_rkc():
    for p in (os.path.join(ROOT, ".carry", "rkc"), shutil.which("rkc") or "",
              os.path.join(ROOT, "build-rel", "rkc"), os.path.join(ROOT, "build", "rkc")):
        if p and os.access(p, os.X_OK):
            return p
    return "rkc"


def fmt(v, w, d=1):
    return f"{v:{w}.{d}f}" if isinstance(v, (int, float)) else f"{'-':>{w}}"


def ratio(a, b):
    return f"{a / b:.3f}" if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b \
        else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dtype", default="bf16", choices=["bf16", "fp16", "fp32"])
    ap.add_argument("--kernels", default="", help="comma-separated names; default all")
    ap.add_argument("--shape", default="", help="MxN for every kernel (default: each its own)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rkc", default=default_rkc(),
                    help="the rkc binary for `rkc run` (default .carry/rkc, rkc on PATH, "
                         "build-rel/rkc, build/rkc)")
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
    ver = subprocess.run([args.rkc, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, rkc "
          f"{rkc.__version__} ({os.path.dirname(rkc.__file__)}), rkc run: {args.rkc} ({ver})",
          flush=True)
    rows = []
    for n in names:
        try:
            r = run_kernel(os.path.join(kdir, n + ".rk"), args.dtype, shape, INPUTS["kernels"],
                           tols, gen, args.rkc)
        except Exception as e:  # a compile failure: the kernel's row says so
            r = {"kernel": n, "shape": "-", "good": False,
                 "contiguous": f"ERROR {type(e).__name__}: {e}"[:160]}
        print(json.dumps(r), flush=True)
        rows.append(r)
        torch.cuda.empty_cache()
    breaks, same = graph_breaks(args.dtype)
    print(f"\n{'kernel':24} {'shape':14} {'contiguous':12} {'row slice':12} {'col pad':12} "
          f"{'bad pad':8} {'pkg us':>8} {'run us':>8} {'ratio':>6} {'pkg pad':>8} "
          f"{'run pad':>8} {'ratio':>6} {'cfg':>4} {'graph us':>8} {'compile':>8} "
          f"{'speedup':>7}")
    bad = 0
    for r in rows:
        sp = ratio(r.get("torch_us"), r.get("graph_us"))
        print(f"{r['kernel']:24} {r['shape']:14} {r.get('contiguous', '-')[:12]:12} "
              f"{r.get('row_slice', '-')[:12]:12} {r.get('col_pad', '-')[:12]:12} "
              f"{r.get('bad_pad', '-')[:8]:8} {fmt(r.get('pkg_us'), 8)} "
              f"{fmt(r.get('run_us'), 8)} {ratio(r.get('pkg_us'), r.get('run_us')):>6} "
              f"{fmt(r.get('pkg_pad_us'), 8)} {fmt(r.get('run_pad_us'), 8)} "
              f"{ratio(r.get('pkg_pad_us'), r.get('run_pad_us')):>6} "
              f"{'same' if r.get('same_config') else 'DIFF':>4} {fmt(r.get('graph_us'), 8)} "
              f"{fmt(r.get('torch_us'), 8)} {sp:>7}")
        bad += not r.get("good")
    ratios = [r["pkg_us"] / r["run_us"] for r in rows if r.get("pkg_us") and r.get("run_us")]
    pratios = [r["pkg_pad_us"] / r["run_pad_us"] for r in rows
               if r.get("pkg_pad_us") and r.get("run_pad_us")]

    def gm(v):
        return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")
    print(f"\npackage / rkc run time, same L2-flushed method: dense rows geomean {gm(ratios):.3f} "
          f"(range {min(ratios, default=float('nan')):.3f}-{max(ratios, default=float('nan')):.3f}"
          f"), padded rows geomean {gm(pratios):.3f} (range "
          f"{min(pratios, default=float('nan')):.3f}-{max(pratios, default=float('nan')):.3f})")
    print(f"configs: {sum(1 for r in rows if r.get('same_config'))} of {len(rows)} the same in "
          "the package and rkc run")
    print(f"torch.compile(fullgraph=True) of a function calling rkc's rms_norm: "
          f"{breaks} graph break(s), result {'matches' if same else 'DIFFERS from'} eager")
    print(f"{len(rows) - bad} of {len(rows)} kernels correct on contiguous, row-sliced and "
          f"column-padded inputs, a forbidden pad refused, and rkc run --pad --check ok "
          f"({args.dtype})")
    sys.exit(1 if bad or breaks or not same else 0)


if __name__ == "__main__":
    main()
