#!/usr/bin/env python3
"""rkc against torch.compile on the same GPU, inputs and process.

For each kernel and suite: a PyTorch definition of the same math (testdata/kernels/*.rk; compute
in f32, outputs in the kernel's types) compiled with torch.compile (default mode, dynamic=False),
and rkc's PTX (`rkc compile`) loaded with the CUDA driver API (cuda.bindings.driver) and launched
per its manifest (dynamic shared memory, a thread-block cluster) with cuLaunchKernelEx on torch's
current stream, on the same torch tensors. Both are timed as CUDA-graph replays, each replay
bracketed by its own events after the L2 is flushed the way `rkc run --time` flushes it (by
reading a buffer twice its size: triton's do_bench zeroes one, which leaves the L2 full of dirty
lines that the timed kernel writes back; docs/design.md, "Timing"), the median. rkc's outputs are
checked against the definition run in float64 first, and torch.compile's likewise (torch_err in
the CSV, not a pass/fail). A point rkc cannot compile or launch is reported in the table.

cross_entropy_backward is compared with what a training step runs instead: torch.compile of
F.cross_entropy's forward (per-row loss, label smoothing, ignore_index) and its backward through
autograd, giving the loss and dlogits the kernel gives. With --liger (Liger Kernel 0.8.5, a
pure-Python wheel or its unpacked directory; it is put on sys.path), kernels Liger has are timed
too: cross_entropy_backward against LigerCrossEntropyFunction (one Triton kernel, loss and the
gradient written over the logits; its host-side checks synchronise, so it is timed as launched,
not as a CUDA-graph replay), gelu_tanh_gated against LigerGELUMulFunction then
LigerRMSNormFunction (two kernels, the gated activation through HBM between them). Liger's outputs
are checked against the same float64 definition (liger_err; bf16 loss and the rounded activation
are Liger's own).

usage: bench/torch_compare.py [--rkc RKC] [--dtype bf16] [--kernels a,b] [--shapes-per-kernel 3]
                              [--suites core,transfer,few_rows,tiny_rows,training] [--csv FILE]
                              [--json FILE] [--workdir DIR] [--liger WHEEL_OR_DIR] [--once]
                              [--heldout DIR]   (DIR's kernels, definitions and shapes instead:
                                                 bench/heldout)
       bench/torch_compare.py --selftest [MANIFEST.json ...] [--liger WHEEL_OR_DIR]   (no GPU,
           no torch: checks the argument packing and launch plan against manifests `rkc compile`
           writes, the parameter list of the PTX beside each, and that --liger holds what is used)
"""
import argparse
import ctypes
import statistics
import csv
import json
import math
import os
import re
import struct
import subprocess
import sys
import tempfile
import zipfile

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # --selftest needs neither torch nor a GPU
    torch = F = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TORCH_DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32,
                "i64": torch.int64, "i32": torch.int32, "i8": torch.int8, "bool": torch.bool,
                "f8e4m3": torch.float8_e4m3fn, "f8e5m2": torch.float8_e5m2} if torch else {}
FP8 = (torch.float8_e4m3fn, torch.float8_e5m2) if torch else ()
DEFAULT_SUITES = "core,transfer,few_rows,tiny_rows,training"


# The kernels, each the .rk file's math: inputs in storage types, params as floats; returns
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


def fp8_quant(x):
    xf = up(x)
    s = torch.clamp_min(xf.abs().amax(-1, keepdim=True), 1e-12) / 448
    # e4m3 has no infinity: torch's cast makes a value past 448 a NaN, the kernel's store saturates
    return {"q": (xf / s).clamp(-448, 448).to(torch.float8_e4m3fn), "scale": s.squeeze(-1)}


def cross_entropy_backward(x, t, ignore_index, ls, n):
    xf = up(x)
    ok = t != int(ignore_index)
    tc = torch.where(ok, t, torch.zeros_like(t))  # an ignored row's label is out of range
    lse = torch.logsumexp(xf, -1)
    xt = xf.gather(1, tc[:, None]).squeeze(1)
    loss = (lse - (1 - ls) * xt - ls * xf.mean(-1)) / n
    # dloss/dx = p - q, q = (1-ls)*onehot(t) + ls/N
    g = torch.exp(xf - lse[:, None]) - ls / xf.shape[-1]
    g = g.scatter_add(1, tc[:, None], torch.full_like(xt[:, None], ls - 1))
    return {"loss": torch.where(ok, loss, torch.zeros_like(loss)),
            "dx": torch.where(ok[:, None], g / n, torch.zeros_like(g)).to(x.dtype)}


def gelu_tanh_gated(gate, w, eps, **kw):
    u = up(kw["up"])  # the input named up, which would hide up() as a parameter
    h = F.gelu(up(gate), approximate="tanh") * u
    r = torch.rsqrt((h * h).mean(-1, keepdim=True) + eps)
    return {"y": (h * r * up(w)).to(gate.dtype), "rstd": r.squeeze(-1)}


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


def rms_norm_backward(x, dy, w, rstd):
    r = up(rstd)[:, None]
    xh = up(x) * r
    g = up(dy) * up(w)
    dx = (g - xh * (g * xh).mean(-1, keepdim=True)) * r
    return {"dx": dx.to(x.dtype), "dw": (up(dy) * xh).sum(0).to(w.dtype)}


def layer_norm_backward(x, dy, w, mean, rstd):
    r = up(rstd)[:, None]
    xh = (up(x) - up(mean)[:, None]) * r
    g = up(dy) * up(w)
    dx = (g - g.mean(-1, keepdim=True) - xh * (g * xh).mean(-1, keepdim=True)) * r
    return {"dx": dx.to(x.dtype), "dw": (up(dy) * xh).sum(0).to(w.dtype),
            "db": up(dy).sum(0).to(w.dtype)}


DEFS = {f.__name__.rstrip("_"): f for f in [
    rms_norm, layer_norm, softmax, sum_, cross_entropy, kl_div, jsd, welford, fused_add_rmsnorm,
    fused_add_layernorm, gated_rmsnorm, scaled_masked_softmax, cross_entropy_ls_zloss,
    dynamic_quant, grpo, fused_linear_jsd, fp8_quant, cross_entropy_backward, gelu_tanh_gated,
    rms_norm_backward, layer_norm_backward]}
DEFS["long_sum"] = sum_


def ce_forward_backward(inputs, params):
    """What torch.compile is timed on for cross_entropy_backward: F.cross_entropy's forward
    compiled, and its backward through autograd (the compiled backward graph), per-row loss and
    dlogits as the kernel writes them (divided by n, as the kernel does)."""
    x, t, n = inputs["x"], inputs["t"], params["n"]

    def loss_rows(x, t):
        return F.cross_entropy(x.float(), t, ignore_index=int(params["ignore_index"]),
                               label_smoothing=params["ls"], reduction="none") / n
    compiled = torch.compile(loss_rows, dynamic=False, fullgraph=True)
    xr = x.detach().requires_grad_(True)
    ones = torch.ones(x.shape[0], dtype=torch.float32, device=x.device)

    def step():
        loss = compiled(xr, t)
        (dx,) = torch.autograd.grad(loss, xr, grad_outputs=ones)
        return {"loss": loss, "dx": dx}
    return step


# Kernels timed with another torch.compile baseline than their definition's.
TORCH_BASELINES = {"cross_entropy_backward": ce_forward_backward}


def liger_cross_entropy_backward(inputs, params):
    """Liger's fused cross entropy, reduction "none" (the kernel's per-row loss and, with n = 1,
    its unscaled gradient), the gradient written over a copy of the logits."""
    from liger_kernel.ops.cross_entropy import LigerCrossEntropyFunction
    if params["n"] != 1:
        raise ValueError("Liger's reduction='none' matches the kernel at n = 1 only")
    xl = inputs["x"].detach().clone().requires_grad_(True)

    def run():
        loss = LigerCrossEntropyFunction.apply(xl, inputs["t"], None, int(params["ignore_index"]),
                                               0.0, params["ls"], "none")[0]
        return {"loss": loss, "dx": xl.detach()}
    return run, False  # its forward reads target counts back to the host: no graph capture


def liger_gelu_tanh_gated(inputs, params):
    """Liger's GEGLU (tanh) and then its RMSNorm (llama casting): two kernels; y only (Liger
    keeps rstd to itself)."""
    from liger_kernel.ops.geglu import LigerGELUMulFunction
    from liger_kernel.ops.rms_norm import LigerRMSNormFunction

    def run():
        h = LigerGELUMulFunction.apply(inputs["gate"], inputs["up"])
        return {"y": LigerRMSNormFunction.apply(h, inputs["w"], params["eps"], 0.0, "llama",
                                                False)}
    return run, True


def saved_stats(inputs, eps):
    """The backward kernels read what the forward saved: mean and rstd of each row of x, made here
    from x (the generated ones are random) so that Liger's backward, which recomputes them in its
    forward, and the definition see the same values."""
    xf = inputs["x"].float()
    if "mean" in inputs:
        inputs["mean"].copy_(xf.mean(-1))
        inputs["rstd"].copy_(torch.rsqrt(xf.var(-1, unbiased=False) + eps))
    else:
        inputs["rstd"].copy_(torch.rsqrt((xf * xf).mean(-1) + eps))


# The eps the backward kernels' saved statistics are made with (Liger's forward takes it too).
SAVED_EPS = {"rms_norm_backward": 1e-6, "layer_norm_backward": 1e-5}


def liger_norm_backward(inputs, params, layer):
    """Liger's RMSNorm or LayerNorm: its forward once, then its backward (dx and dW, and dB) timed
    alone through autograd.grad with the graph kept; eager (a torch sum of per-SM partials)."""
    from liger_kernel.ops.layer_norm import LigerLayerNormFunction
    from liger_kernel.ops.rms_norm import LigerRMSNormFunction
    x = inputs["x"].detach().clone().requires_grad_(True)
    w = inputs["w"].detach().clone().requires_grad_(True)
    eps = SAVED_EPS["layer_norm_backward" if layer else "rms_norm_backward"]
    if layer:
        b = torch.zeros_like(w).requires_grad_(True)
        y = LigerLayerNormFunction.apply(x, w, b, eps)
        wrt = (x, w, b)
    else:
        y = LigerRMSNormFunction.apply(x, w, eps, 0.0, "llama", False)
        wrt = (x, w)

    def run():
        g = torch.autograd.grad(y, wrt, inputs["dy"], retain_graph=True)
        out = {"dx": g[0], "dw": g[1]}
        if layer:
            out["db"] = g[2]
        return out
    return run, False


# Kernels Liger has: a function of (inputs, params) giving (run, graphable); run() returns some of
# the kernel's outputs by name.
LIGER = {"cross_entropy_backward": liger_cross_entropy_backward,
         "gelu_tanh_gated": liger_gelu_tanh_gated,
         "rms_norm_backward": lambda i, p: liger_norm_backward(i, p, False),
         "layer_norm_backward": lambda i, p: liger_norm_backward(i, p, True)}
# What of Liger each uses, checked by --selftest: (file in the wheel, names it must define).
LIGER_USES = [("liger_kernel/ops/cross_entropy.py", ["class LigerCrossEntropyFunction"]),
              ("liger_kernel/ops/geglu.py", ["class LigerGELUMulFunction"]),
              ("liger_kernel/ops/rms_norm.py", ["class LigerRMSNormFunction"]),
              ("liger_kernel/ops/layer_norm.py", ["class LigerLayerNormFunction"])]


def liger_dir(path, workdir):
    """The directory to put on sys.path for Liger: path itself, or a wheel unpacked under
    workdir."""
    if os.path.isdir(path):
        return path
    out = os.path.join(workdir, "liger_" + os.path.basename(path).replace(".whl", ""))
    with zipfile.ZipFile(path) as z:
        z.extractall(out)
    return out


def make_input(spec, p, M, N, made, gen):
    """One input by its testdata/inputs.json distribution, on the GPU in its storage type."""
    shape = {"[M,N]": (M, N), "[M]": (M,), "[N]": (N,)}[p["shape"]]
    dt = TORCH_DTYPES[p["type"]]
    kind = spec["dist"]
    dev = "cuda"
    if kind == "labels":  # ignore with probability frac, and at row 1 where frac > 0
        t = torch.randint(0, N, shape, device=dev, generator=gen, dtype=dt)
        frac = spec.get("frac", 0)
        if frac > 0:
            off = torch.rand(shape, device=dev, generator=gen) < frac
            off[1:2] = True
            t = torch.where(off, torch.full_like(t, int(spec.get("ignore", -100))), t)
        return t
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


_FLUSH = []


def flush_l2():
    """Flush the L2 as rkc run --time does (runtime/cuda.c): read a zeroed buffer twice its size."""
    if not _FLUSH:
        l2 = torch.cuda.get_device_properties(torch.cuda.current_device()).L2_cache_size
        _FLUSH.append(torch.zeros(max(l2, 32 << 20) * 2 // 4, dtype=torch.int32, device="cuda"))
    _FLUSH[0].max()


def flushed_us(fn, rep_ms=200.0):
    """Median GPU time of fn, each call bracketed by its own events after flush_l2, 20 to 1000
    calls (about rep_ms of GPU time), after a warm-up."""
    def run(n):
        ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(n)]
        for a, b in ev:
            flush_l2()
            a.record()
            fn()
            b.record()
        torch.cuda.synchronize()
        return sorted(a.elapsed_time(b) for a, b in ev)

    run(5)
    est = statistics.median(run(5))
    n = int(rep_ms / est) if est > 0 else 1000
    return statistics.median(run(max(20, min(1000, n)))) * 1e3


def graph_us(fn):
    """Median GPU time of a CUDA-graph replay of fn, the L2 flushed before each (flushed_us)."""
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
    return flushed_us(g.replay)


def eager_us(fn):
    """Median GPU time of fn as launched, the L2 flushed before each call (flushed_us), for what
    a CUDA graph cannot capture."""
    return flushed_us(fn)


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


def in_type(r, dtype):
    """The reference rounded to the output's type, as a store of it rounds it (runtime/check.c
    compares so): an e4m3 output holds 3 bits of the value, and its rounding is not the kernel's
    error. Where rounding leaves the type's range (an e4m3 NaN, an f16 inf), r as it is."""
    if not r.is_floating_point() or dtype == r.dtype or not dtype.is_floating_point:
        return r
    rt = r.to(dtype).to(r.dtype)
    return torch.where(torch.isfinite(rt) | ~torch.isfinite(r), rt, r)


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
    if n <= 1:
        return s[-1:] if n == 1 else []
    return [s[round(i * (len(s) - 1) / (n - 1))] for i in range(n)]


def parse_suites(text, default_n):
    """"core,transfer,few_rows:2" -> [("core", n), ("transfer", n), ("few_rows", 2)]: each
    testdata/shapes/<suite>.json and how many of a kernel's shapes to take from it."""
    out = []
    for item in filter(None, (t.strip() for t in text.split(","))):
        name, _, n = item.partition(":")
        out.append((name, int(n) if n else default_n))
    return out


# Where the kernels and the shape suites are: testdata/, or with --heldout its directory (its
# K.rk files, shapes.json as the suite "heldout", defs.py's DEFS, inputs.json's distributions).
KERNEL_DIR = os.path.join(ROOT, "testdata", "kernels")
SUITE_FILES = {}


def suite_shapes(suite):
    """{kernel: [(M, N), ...]} of testdata/shapes/<suite>.json, in the file's kernel order."""
    out = {}
    path = SUITE_FILES.get(suite, os.path.join(ROOT, "testdata", "shapes", f"{suite}.json"))
    with open(path) as f:
        for k in json.load(f)["kernels"]:
            # (B, L, V) is M = B*L rows of V
            out[k["kernel"]] = [(sh[0] * sh[1], sh[2]) if len(sh) == 3 else tuple(sh)
                                for sh in k["shapes"]]
    return out


class RkcError(Exception):
    """rkc could not compile a point: reported in the table as NOCOMPILE."""


def compile_rkc(rkc, kernel, M, N, dtype, workdir):
    ptx = os.path.join(workdir, f"{kernel}.{dtype}.{M}x{N}.ptx")
    try:
        r = subprocess.run([rkc, "compile", os.path.join(KERNEL_DIR, kernel + ".rk"),
                            "--shape", f"{M}x{N}", "--dtype", dtype, "-o", ptx],
                           capture_output=True, text=True)
    except OSError as e:
        raise RkcError(f"cannot run {rkc}: {e}") from e
    if r.returncode != 0:
        msg = (r.stderr.strip() or r.stdout.strip() or f"exit {r.returncode}").splitlines()
        raise RkcError(f"rkc compile exit {r.returncode}: {msg[0] if msg else ''}")
    with open(ptx[:-4] + ".json") as f:
        return ptx, json.load(f)


# The launch, per docs/codegen.md's ABI: parameters in manifest order, arrays and the workspace
# as 64-bit device pointers, params as f32, dims (M, N) as integers of their manifest type, and
# (manifest version 3) each [M,N] array's row stride as an i64: N, as the tensors here are dense.
ARG_CTYPES = {"ptr": ctypes.c_uint64, "f32": ctypes.c_float, "i64": ctypes.c_int64,
              "i32": ctypes.c_int32}
# Any dynamic shared memory sets the function attribute: the 48 KiB default counts the static
# shared memory too, so a kernel with 48 KiB of rows and its partials needs the opt-in.
PORTABLE_CLUSTER = 8     # larger clusters need the non-portable attribute


def arg_slots(man):
    """(ctypes type, what) per kernel parameter in manifest order; what is ("ptr", name),
    ("f32", value) or ("dim", value) (a row stride is a dim: N, dense rows)."""
    slots = []
    for p in man["params"]:
        kind = p["kind"]
        if kind in ("in", "out", "workspace"):
            slots.append((ARG_CTYPES["ptr"], ("ptr", p["name"])))
        elif kind == "param":
            slots.append((ARG_CTYPES["f32"], ("f32", float(p["default"]))))
        elif kind == "dim":
            if p["name"] not in ("M", "N") or p["type"] not in ("i64", "i32"):
                raise ValueError(f"manifest: unknown dim {p['name']}: {p['type']}")
            slots.append((ARG_CTYPES[p["type"]], ("dim", int(man[p["name"]]))))
        elif kind == "stride":
            if p["type"] != "i64":
                raise ValueError(f"manifest: stride {p['name']} is {p['type']}, not i64")
            slots.append((ARG_CTYPES["i64"], ("dim", int(man["N"]))))
        else:
            raise ValueError(f"manifest: unknown parameter kind {kind!r} ({p['name']})")
    return slots


def pack_args(man, ptrs):
    """The kernel's arguments for cuLaunchKernelEx's kernelParams: (values, array), values the
    ctypes objects in manifest order, array a void*[] of their addresses. ptrs maps array and
    workspace names to device addresses. Keep both alive as long as the launch can run."""
    values = []
    for ctype, (what, v) in arg_slots(man):
        values.append(ctype(ptrs[v] if what == "ptr" else v))
    array = (ctypes.c_void_p * max(1, len(values)))(*(ctypes.addressof(v) for v in values))
    return values, array


def launch_plan(man):
    """Grid, block, dynamic shared memory and cluster dims from the manifest, and the function
    attributes to set before the first launch, as (CUfunction_attribute name, value) pairs.
    "dynamic_smem" and "cluster" are optional (absent: 0 and no cluster)."""
    g, b = man["grid"], man["block"]
    grid = (int(g.get("x_value", g["x"])), int(g.get("y", 1)), int(g.get("z", 1)))  # v1: x_value
    block = (int(b["x"]), int(b.get("y", 1)), int(b.get("z", 1)))
    smem = int(man.get("dynamic_smem", 0) or 0)
    c = man.get("cluster") or {}
    cluster = (int(c.get("x", 1)), int(c.get("y", 1)), int(c.get("z", 1)))
    if smem < 0 or min(grid + block + cluster) < 1:
        raise ValueError(f"manifest: bad launch dims grid {grid} block {block} "
                         f"cluster {cluster} smem {smem}")
    if any(gd % cd for gd, cd in zip(grid, cluster)):
        raise ValueError(f"manifest: grid {grid} is not a whole number of clusters {cluster}")
    attrs = []
    if smem > 0:
        attrs.append(("CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES", smem))
    csize = cluster[0] * cluster[1] * cluster[2]
    if csize > PORTABLE_CLUSTER:
        attrs.append(("CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED", 1))
    return {"grid": grid, "block": block, "smem": smem,
            "cluster": cluster if csize > 1 else None, "func_attrs": attrs,
            "cooperative": bool(man.get("cooperative", False))}


def cu_check(cu, res, what):
    """The value(s) of a cuda.bindings call's (CUresult, ...) tuple; raises on an error."""
    err = res[0]
    if err != cu.CUresult.CUDA_SUCCESS:
        e, s = cu.cuGetErrorString(err)
        text = s.decode() if e == cu.CUresult.CUDA_SUCCESS and s else ""
        raise RuntimeError(f"{what}: {getattr(err, 'name', err)} {text}".rstrip())
    return res[1] if len(res) == 2 else res[1:] or None


def rkc_launcher(ptx, man, tensors):
    """A function that launches rkc's kernel on the tensors with cuLaunchKernelEx, on torch's
    current stream at the time of the call (so a CUDA graph captures it), in torch's context."""
    from cuda.bindings import driver as cu
    plan = launch_plan(man)
    cu_check(cu, cu.cuInit(0), "cuInit")
    if int(cu_check(cu, cu.cuCtxGetCurrent(), "cuCtxGetCurrent")) == 0:
        # torch's runtime makes the device's primary context current; make sure of it
        dev = cu_check(cu, cu.cuDeviceGet(torch.cuda.current_device()), "cuDeviceGet")
        ctx = cu_check(cu, cu.cuDevicePrimaryCtxRetain(dev), "cuDevicePrimaryCtxRetain")
        cu_check(cu, cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    with open(ptx, "rb") as f:
        image = f.read() + b"\0"
    mod = cu_check(cu, cu.cuModuleLoadData(image), f"cuModuleLoadData {ptx}")
    fn = cu_check(cu, cu.cuModuleGetFunction(mod, man["entry"].encode()), "cuModuleGetFunction")
    for name, value in plan["func_attrs"]:
        cu_check(cu, cu.cuFuncSetAttribute(fn, getattr(cu.CUfunction_attribute, name), value),
                 f"cuFuncSetAttribute {name}={value}")
    values, array = pack_args(man, {n: t.data_ptr() for n, t in tensors.items()})
    cfg = cu.CUlaunchConfig()
    cfg.gridDimX, cfg.gridDimY, cfg.gridDimZ = plan["grid"]
    cfg.blockDimX, cfg.blockDimY, cfg.blockDimZ = plan["block"]
    cfg.sharedMemBytes = plan["smem"]
    attrs = []
    if plan["cluster"]:
        a = cu.CUlaunchAttribute()
        a.id = cu.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        dim = a.value.clusterDim
        dim.x, dim.y, dim.z = plan["cluster"]
        attrs.append(a)
    if plan["cooperative"]:  # coop=1: every CTA resident at once, or the driver refuses
        a = cu.CUlaunchAttribute()
        a.id = cu.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_COOPERATIVE
        a.value.cooperative = 1
        attrs.append(a)
    cfg.numAttrs = len(attrs)
    cfg.attrs = attrs
    params = ctypes.addressof(array)

    def launch():
        cfg.hStream = cu.CUstream(torch.cuda.current_stream().cuda_stream)
        cu_check(cu, cu.cuLaunchKernelEx(cfg, fn, params, 0), f"cuLaunchKernelEx {man['entry']}")
    # the module stays loaded (a captured graph may still name the function), and the argument
    # storage stays alive with the launcher
    launch.keep = (mod, fn, values, array, cfg, attrs)
    return launch


def run_point(args, suite, kernel, M, N, inputs_spec, tols, gbps, gen):
    ptx, man = compile_rkc(args.rkc, kernel, M, N, args.dtype, args.workdir)
    spec = inputs_spec["kernels"].get(kernel, {})
    made, params, outs = {}, {}, {}
    order = sorted((p for p in man["params"] if p["kind"] == "in"),
                   key=lambda p: spec.get(p["name"], {}).get("dist") == "selected_log_prob")
    for p in order:
        kind = "bool" if p["type"] == "bool" else "int" if p["type"].startswith("i") else "float"
        d = spec.get(p["name"]) or inputs_spec["default"][kind]
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
    if kernel in SAVED_EPS:
        saved_stats(inputs, SAVED_EPS[kernel])
    launch = rkc_launcher(ptx, man, {**made, **outs})

    # correctness first: rkc's outputs against the definition in float64 on a spread of rows
    for n, t in outs.items():
        if t.dtype in FP8:
            t.view(torch.uint8).fill_(0xFF)  # a NaN in both fp8 types
        elif n != "workspace":
            t.fill_(float("nan") if t.is_floating_point() else 0)
    launch()
    torch.cuda.synchronize()
    rows = torch.linspace(0, M - 1, min(M, 256), device="cuda").round().long().unique()
    if any(p["kind"] == "out" and p["shape"] == "[N]" for p in man["params"]):
        rows = torch.arange(M, device="cuda")  # a sum over rows is checked on all of them

    def sample(name, t):
        if man_shape(man, name) not in ("[M,N]", "[M]"):
            return t
        # fp8 rows through their bytes: indexing may not take an fp8 tensor
        return t.view(torch.uint8)[rows].view(t.dtype) if t.dtype in FP8 else t[rows]
    ref = DEFS[kernel](**{n: (lambda v: v.double() if v.is_floating_point() else v)(sample(n, t))
                          for n, t in inputs.items()}, **params)
    errs, ok = [], True
    for i, n in enumerate(p["name"] for p in man["params"] if p["kind"] == "out"):
        got = sample(n, outs[n])
        if got.dtype == torch.int8:
            e = (got.double() - ref[n].double()).abs().max().item()
            ok &= e <= 1
        else:
            e = rel_l2(got, in_type(ref[n], got.dtype))
            ok &= e <= tolerance(tols, kernel, i, args.dtype)
        errs.append(e)

    if kernel in TORCH_BASELINES:
        baseline = TORCH_BASELINES[kernel](inputs, params)
    else:
        compiled = torch.compile(DEFS[kernel], dynamic=False, fullgraph=True)

        def baseline():
            return compiled(**inputs, **params)
    got = baseline()  # what torch.compile computes, against the same float64 definition
    torch.cuda.synchronize()
    tc_err = max(rel_l2(sample(n, t), in_type(ref[n], t.dtype)) for n, t in got.items())
    del got
    if args.once:  # for a profiler: each kernel once more, nothing timed
        baseline()
        launch()
        torch.cuda.synchronize()
        tc_us = rkc_us = float("nan")
    else:
        tc_us = graph_us(baseline)
        rkc_us = graph_us(launch)
    liger = {}
    if args.liger and kernel in LIGER:
        try:  # a failure of Liger's is reported in its columns; the point's other figures stand
            run, graphable = LIGER[kernel](inputs, params)
            got = run()  # checked before timing: Liger's cross entropy overwrites its copy of x
            torch.cuda.synchronize()
            lerr = max(rel_l2(sample(n, t), in_type(ref[n], t.dtype)) for n, t in got.items())
            del got
            liger_us = graph_us(run) if graphable else eager_us(run)
            liger = {"liger_us": round(liger_us, 2), "liger_speedup": round(liger_us / rkc_us, 3),
                     "liger_err": f"{lerr:.2e}", "liger_timing": "graph" if graphable else "eager"}
        except Exception as e:
            liger = {"liger_timing": f"ERROR {type(e).__name__}: {e}"[:200]}
        run = None
    cfg = man.get("config", {})
    res = {"suite": suite, "kernel": kernel, "dtype": args.dtype, "M": M, "N": N,
           "mbytes": round(mbytes, 1),
           "rkc_us": round(rkc_us, 2), "torch_us": round(tc_us, 2),
           "speedup": round(tc_us / rkc_us, 3),
           "rkc_pct_copy": round(100 * mbytes * 1e6 / (rkc_us * 1e-6) / 1e9 / gbps, 1),
           "torch_pct_copy": round(100 * mbytes * 1e6 / (tc_us * 1e-6) / 1e9 / gbps, 1),
           "rkc_ok": "ok" if ok else "FAIL", "rkc_max_err": f"{max(errs):.2e}",
           "torch_err": f"{tc_err:.2e}",
           "torch_baseline": "F.cross_entropy fwd+bwd" if kernel in TORCH_BASELINES
           else "definition",
           "config": " ".join(f"{k}={v}" for k, v in cfg.items()), **liger}
    del made, outs, inputs, ref, baseline
    torch._dynamo.reset()
    torch.cuda.empty_cache()
    return res


def man_shape(man, name):
    return [p for p in man["params"] if p["name"] == name][0]["shape"]


# --selftest: points that cover a split workspace, f32 params, [M] inputs and an i8 output.
SELFTEST_POINTS = [("sum", 16, 1000003), ("grpo", 37, 128256), ("layer_norm", 64, 32768),
                   ("dynamic_quant", 1, 32768), ("cross_entropy_backward", 4096, 151936),
                   ("fp8_quant", 100003, 250)]
PTX_TYPES = {"ptr": ("u64", "b64", "s64"), "f32": ("f32", "b32"), "i64": ("u64", "s64", "b64"),
             "i32": ("u32", "s32", "b32")}
PACK = {"ptr": "<Q", "f32": "<f", "i64": "<q", "i32": "<i"}


def ptx_param_types(text, entry):
    """The .param types of the .entry named entry, in order; None if it is not there."""
    m = re.search(r"\.entry\s+" + re.escape(entry) + r"\s*\((.*?)\)", text, re.S)
    return re.findall(r"\.param\s+\.(\w+)", m.group(1)) if m else None


def selftest_manifest(path):
    """Problems with packing and planning the launch of one manifest (and the PTX beside it)."""
    with open(path) as f:
        man = json.load(f)
    bad = []
    slots = arg_slots(man)
    ptrs = {p["name"]: 0x7F0000000000 + 0x100000 * i for i, p in enumerate(man["params"])}
    values, array = pack_args(man, ptrs)
    kinds = []
    for i, ((ctype, (what, v)), p) in enumerate(zip(slots, man["params"])):
        kind = "ptr" if what == "ptr" else "f32" if what == "f32" else p["type"]
        kinds.append(kind)
        want = struct.pack(PACK[kind], ptrs[v] if what == "ptr" else v)
        got = ctypes.string_at(array[i], ctypes.sizeof(ctype))
        if array[i] != ctypes.addressof(values[i]) or got != want:
            bad.append(f"argument {i} ({p['name']}): {got.hex()} where {want.hex()} belongs")
    if len(values) != len(man["params"]):
        bad.append(f"{len(values)} arguments for {len(man['params'])} parameters")
    ptx = path[:-5] + ".ptx" if path.endswith(".json") else path + ".ptx"
    types = None
    if os.path.exists(ptx):
        with open(ptx) as f:
            types = ptx_param_types(f.read(), man["entry"])
        if types is None:
            bad.append(f"{ptx}: no .entry {man['entry']}")
        elif len(types) != len(kinds) or any(t not in PTX_TYPES[k] for t, k in zip(types, kinds)):
            bad.append(f"{ptx}: .param {' '.join(types)} where the manifest packs "
                       f"{' '.join(kinds)}")
    try:
        plan = launch_plan(man)
    except ValueError as e:
        bad.append(str(e))
        plan = None
    ws = [p["bytes"] for p in man["params"] if p["kind"] == "workspace"]
    print(f"{'FAIL' if bad else 'ok':5} {os.path.basename(path)}: {man['entry']}("
          f"{', '.join(kinds)}){' workspace %d B' % ws[0] if ws else ''}; "
          f"PTX {'checked' if types else 'not found'}; "
          + (f"grid {plan['grid']} block {plan['block']} smem {plan['smem']} cluster "
             f"{plan['cluster']} attrs {plan['func_attrs']}" if plan else ""))
    for b in bad:
        print("      " + b)
    return man, len(bad)


def selftest_liger(path, workdir):
    """Problems with --liger: whether it unpacks and holds the classes LIGER uses."""
    try:
        d = liger_dir(path, workdir)
    except (OSError, zipfile.BadZipFile) as e:
        print(f"FAIL  --liger {path}: {e}")
        return 1
    bad = 0
    for rel, names in LIGER_USES:
        f = os.path.join(d, rel)
        text = open(f).read() if os.path.exists(f) else ""
        missing = [n for n in names if n not in text]
        bad += bool(missing) or not text
        print(f"{'FAIL' if missing or not text else 'ok':5} liger {rel}"
              + (f": no {', '.join(missing)}" if missing else ""))
    return bad


def selftest(rkc, manifests, liger=None):
    """No GPU, no torch: the packing and launch plan of each manifest (default: ones --rkc
    compiles), then launch_plan on the first manifest with dynamic shared memory and cluster
    dims written in, and what --liger holds when given. Returns the exit status."""
    problems, base = 0, None
    with tempfile.TemporaryDirectory(prefix="rkc_selftest_") as tmp:
        if liger:
            problems += selftest_liger(liger, tmp)
        if not manifests:
            for kernel, M, N in SELFTEST_POINTS:
                try:
                    ptx, _ = compile_rkc(rkc, kernel, M, N, "bf16", tmp)
                    manifests.append(ptx[:-4] + ".json")
                except RkcError as e:
                    print(f"FAIL  {kernel} {M}x{N}: {e}")
                    problems += 1
        for path in manifests:
            man, n = selftest_manifest(path)
            problems += n
            base = base or man
    if base is None:
        print("FAIL  no manifest to check")
        return 1
    x = int(base["grid"].get("x_value", base["grid"]["x"]))
    cases = [  # (dynamic_smem, cluster, expected cluster dims, expected attribute names)
        (0, None, None, []),
        (48 * 1024, {"x": 1, "y": 1, "z": 1}, None,
         ["CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES"]),
        (48 * 1024 + 16, {"x": 2, "y": 1, "z": 1}, (2, 1, 1),
         ["CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES"]),
        (0, {"x": 8, "y": 1, "z": 1}, (8, 1, 1), []),
        (200 * 1024, {"x": 16, "y": 1, "z": 1}, (16, 1, 1),
         ["CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES",
          "CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED"]),
    ]
    for smem, cluster, want_cluster, want_attrs in cases:
        man = dict(base, dynamic_smem=smem)
        k = cluster["x"] if cluster else 1
        man["grid"] = dict(base["grid"], x=-(-x // k) * k, x_value=-(-x // k) * k)  # a whole number of clusters
        if cluster:
            man["cluster"] = cluster
        plan = launch_plan(man)
        ok = (plan["cluster"] == want_cluster and plan["smem"] == smem
              and [a for a, _ in plan["func_attrs"]] == want_attrs
              and all(v == (smem if "SHARED" in a else 1) for a, v in plan["func_attrs"]))
        problems += not ok
        print(f"{'ok' if ok else 'FAIL':5} plan smem {smem} cluster {cluster}: cluster "
              f"{plan['cluster']} attrs {plan['func_attrs']}")
    man = dict(base, cluster={"x": 3, "y": 1, "z": 1}, grid=dict(base["grid"], x=3 * x + 1,
                                                                     x_value=3 * x + 1))
    try:
        launch_plan(man)
        print("FAIL  a grid that is not a whole number of clusters was accepted")
        problems += 1
    except ValueError as e:
        print(f"ok    plan refused: {e}")
    print(f"selftest: {problems} problem(s)")
    return 1 if problems else 0


def heldout(args):
    """--heldout DIR: its kernels, definitions and shapes replace testdata's."""
    global KERNEL_DIR, DEFS
    KERNEL_DIR = os.path.abspath(args.heldout)
    sys.path.insert(0, KERNEL_DIR)
    import defs  # DIR/defs.py
    DEFS = defs.DEFS
    SUITE_FILES["heldout"] = os.path.join(KERNEL_DIR, "shapes.json")
    if args.suites == DEFAULT_SUITES:
        args.suites = "heldout"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rkc", default=os.environ.get("RKC", os.path.join(ROOT, "rkc")))
    ap.add_argument("--dtype", default="bf16", choices=["bf16", "f16", "f32"])
    ap.add_argument("--kernels", default="",
                    help="comma-separated; default every kernel with a definition here")
    ap.add_argument("--shapes-per-kernel", type=int, default=3,
                    help="shapes a kernel takes from each suite, spread by size, the largest "
                         "among them (default 3)")
    ap.add_argument("--suites", default=DEFAULT_SUITES,
                    help="testdata/shapes/<suite>.json to take shapes from, comma-separated; "
                         "suite:n takes n shapes a kernel from that suite (default %(default)s)")
    ap.add_argument("--csv", default=os.path.join(os.environ.get("OUT", "."), "torch_compare.csv"))
    ap.add_argument("--json", default=os.path.join(os.environ.get("OUT", "."), "torch_compare.json"),
                    help="the device, the copy bandwidth and every point's fields, for "
                         "bench/plot_bw.py (default beside the CSV)")
    ap.add_argument("--workdir", default=os.path.join(os.environ.get("OUT", "."), "ptx"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--copy-gbps", type=float, default=0,
                    help="copy bandwidth for the %% columns (default: measured, as rkc run does)")
    ap.add_argument("--liger", default="",
                    help="Liger Kernel 0.8.5: its wheel or unpacked directory, put on sys.path; "
                         "times the kernels Liger has (cross_entropy_backward, gelu_tanh_gated)")
    ap.add_argument("--once", action="store_true",
                    help="run each point's two kernels once after the check and time nothing "
                         "(for ncu: every launch of a point is its check, its compile and one "
                         "more of each; the table's times are nan)")
    ap.add_argument("--heldout", default="", metavar="DIR",
                    help="kernels no suite of testdata holds (bench/heldout): DIR's K.rk files "
                         "with defs.py's definitions, shapes.json as the suite 'heldout' (the "
                         "default --suites then) and inputs.json's distributions")
    ap.add_argument("--selftest", nargs="*", metavar="MANIFEST",
                    help="no GPU: check the argument packing and launch plan on these manifests "
                         "(the .ptx beside each), default some that --rkc compiles; then exit")
    args = ap.parse_args()
    if args.selftest is not None:
        sys.exit(selftest(args.rkc, args.selftest, args.liger))
    if torch is None:
        sys.exit("torch_compare: needs torch (and triton, cuda-bindings and a GPU)")
    if args.heldout:
        heldout(args)
    suites = parse_suites(args.suites, args.shapes_per_kernel)
    os.makedirs(args.workdir, exist_ok=True)
    with open(os.path.join(ROOT, "testdata", "inputs.json")) as f:
        inputs_spec = json.load(f)
    if args.heldout and os.path.exists(os.path.join(args.heldout, "inputs.json")):
        with open(os.path.join(args.heldout, "inputs.json")) as f:
            inputs_spec["kernels"].update(json.load(f)["kernels"])
    with open(os.path.join(ROOT, "testdata", "tolerances.json")) as f:
        tols = json.load(f)
    shapes = {s: suite_shapes(s) for s, _ in suites}
    kernels = [k for k in (args.kernels.split(",") if args.kernels else DEFS) if k]
    gen = torch.Generator(device="cuda").manual_seed(args.seed)
    gbps = args.copy_gbps or copy_gbps()
    liger_version = ""
    if args.liger:
        sys.path.insert(0, liger_dir(args.liger, args.workdir))
        import liger_kernel.ops  # noqa: F401  (fails here, not at the first point)
        from importlib.metadata import version, PackageNotFoundError
        try:
            liger_version = f", liger-kernel {version('liger-kernel')}"
        except PackageNotFoundError:
            liger_version = ", liger-kernel (version unknown)"
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, copy {gbps:.0f} GB/s"
          f"{liger_version}", flush=True)
    results = []
    for suite, n in suites:
        for k in kernels:
            for M, N in pick_shapes(shapes[suite].get(k, []), n):
                try:
                    r = run_point(args, suite, k, M, N, inputs_spec, tols, gbps, gen)
                except Exception as e:  # one bad point must not lose the rest of the table
                    status = "NOCOMPILE" if isinstance(e, RkcError) else "ERROR"
                    print(f"{suite} {k} {M}x{N}: {status} {type(e).__name__}: {e}", flush=True)
                    r = {"suite": suite, "kernel": k, "dtype": args.dtype, "M": M, "N": N,
                         "rkc_ok": status, "error": f"{type(e).__name__}: {e}"[:300]}
                    torch._dynamo.reset()
                    torch.cuda.empty_cache()
                results.append(r)
                print(",".join(str(r.get(c, "")) for c in ("suite", "kernel", "M", "N", "rkc_us",
                                                           "torch_us", "speedup", "rkc_ok")),
                      flush=True)
    cols = ["suite", "kernel", "dtype", "M", "N", "mbytes", "rkc_us", "torch_us", "speedup",
            "rkc_pct_copy", "torch_pct_copy", "rkc_ok", "rkc_max_err", "torch_err", "torch_baseline",
            "liger_us", "liger_speedup", "liger_err", "liger_timing", "config", "error"]
    with open(args.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
        w.writeheader()
        w.writerows(results)
    with open(args.json, "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                   "dtype": args.dtype, "copy_gbps": gbps, "results": results}, f, indent=1,
                  default=str)
    timed = [r for r in results if "speedup" in r]
    print(f"\n{'suite':10} {'kernel':24} {'M':>6} {'N':>7} {'MB':>7} {'rkc us':>9} {'tc us':>9} "
          f"{'speedup':>7} {'rkc %cp':>7} {'tc %cp':>7} check")
    for r in results:
        if "speedup" in r:
            print(f"{r['suite']:10} {r['kernel']:24} {r['M']:>6} {r['N']:>7} {r['mbytes']:>7} "
                  f"{r['rkc_us']:>9} {r['torch_us']:>9} {r['speedup']:>7} {r['rkc_pct_copy']:>7} "
                  f"{r['torch_pct_copy']:>7} {r['rkc_ok']}")
        else:
            print(f"{r['suite']:10} {r['kernel']:24} {r['M']:>6} {r['N']:>7} {r['rkc_ok']}")

    def gm(xs):
        xs = [x for x in xs if x > 0]
        return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
    for suite, _ in suites:
        ts = [r for r in timed if r["suite"] == suite]
        if ts and len(suites) > 1:
            print(f"{suite}: geomean over {len(ts)} points: speedup "
                  f"{gm([r['speedup'] for r in ts]):.3f}, rkc "
                  f"{gm([r['rkc_pct_copy'] for r in ts]):.1f}% of copy, torch.compile "
                  f"{gm([r['torch_pct_copy'] for r in ts]):.1f}%")
    lig = [r for r in timed if "liger_us" in r]
    for r in lig:
        print(f"liger {r['kernel']} {r['M']}x{r['N']}: rkc {r['rkc_us']} us, liger {r['liger_us']} us "
              f"({r['liger_timing']}), speedup {r['liger_speedup']}, liger_err {r['liger_err']}")
    if lig:
        print(f"against Liger: geomean speedup {gm([r['liger_speedup'] for r in lig]):.3f} over "
              f"{len(lig)} points")
    print(f"geomean over {len(timed)} points: speedup {gm([r['speedup'] for r in timed]):.3f}, "
          f"rkc {gm([r['rkc_pct_copy'] for r in timed]):.1f}% of copy, "
          f"torch.compile {gm([r['torch_pct_copy'] for r in timed]):.1f}%; "
          f"checks failed: {sum(r['rkc_ok'] == 'FAIL' for r in results)}, not run: "
          f"{sum(r['rkc_ok'] not in ('ok', 'FAIL') for r in results)}; csv: {args.csv}, json: "
          f"{args.json}")


if __name__ == "__main__":
    main()
