#!/usr/bin/env python3
"""Bandwidth against row width, a PNG per kernel family, from bench/torch_compare.py's output.

usage: bench/plot_bw.py FILE... [--out DIR] [--dtype bf16]

FILE: torch_compare.py's --json (its results and the copy bandwidth it measured) or --csv (the
copy bandwidth then comes from each row's rkc_pct_copy). A point given by several files (the same
kernel, dtype, M and N) is taken from the last. For each family (norms, norm backward, softmaxes,
losses, reductions, quantization and activations) DIR/bw_<family>.png has a panel per kernel: GB/s (each
input read once and each output written once, over the median time) against N on a log axis,
one line for rkc and one for torch.compile through the shapes in order of N (then M), and the
device-to-device copy bandwidth as a dotted line. Needs matplotlib (on the GPU host); prints the
files it wrote.
"""
import argparse
import csv
import json
import math
import os
import sys

FAMILIES = [
    ("norms", ["rms_norm", "layer_norm", "fused_add_rmsnorm", "fused_add_layernorm",
               "gated_rmsnorm"]),
    ("norm_backward", ["rms_norm_backward", "layer_norm_backward"]),
    ("softmaxes", ["softmax", "scaled_masked_softmax"]),
    ("losses", ["cross_entropy", "cross_entropy_ls_zloss", "cross_entropy_backward", "jsd",
                "kl_div", "grpo", "fused_linear_jsd"]),
    ("reductions", ["sum", "long_sum", "welford"]),
    ("quant_act", ["dynamic_quant", "fp8_quant", "gelu_tanh_gated"]),
]


def num(x):
    try:
        v = float(x)
        return v if math.isfinite(v) else None
    except (TypeError, ValueError):
        return None


def points(path):
    """[{kernel, dtype, M, N, rkc, torch, copy}] in GB/s from one torch_compare output."""
    with open(path) as f:
        text = f.read()
    if text.lstrip().startswith("{"):
        d = json.loads(text)
        rows, copy = d["results"], num(d.get("copy_gbps"))
    else:
        rows, copy = list(csv.DictReader(text.splitlines())), None
    out = []
    for r in rows:
        mb, ru, tu = num(r.get("mbytes")), num(r.get("rkc_us")), num(r.get("torch_us"))
        if not mb or not ru or r.get("rkc_ok", "ok") not in ("ok", "FAIL"):
            continue
        rkc = mb * 1e3 / ru  # MB / us = TB/s; * 1e3 = GB/s
        c = copy or num(r.get("copy_gbps"))
        pct = num(r.get("rkc_pct_copy"))
        if not c and pct:
            c = rkc * 100 / pct
        out.append({"kernel": r["kernel"], "dtype": r.get("dtype", "bf16"), "M": int(r["M"]),
                    "N": int(r["N"]), "rkc": rkc, "torch": mb * 1e3 / tu if tu else None,
                    "copy": c})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--out", default=os.path.join(os.environ.get("OUT", "."), "plots"))
    ap.add_argument("--dtype", default="bf16")
    args = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_bw: needs matplotlib")
    byk = {}
    for path in args.files:
        for p in points(path):
            if p["dtype"] in (args.dtype, {"bf16": "bf16", "f32": "fp32"}.get(args.dtype)):
                byk.setdefault(p["kernel"], {})[(p["M"], p["N"])] = p
    os.makedirs(args.out, exist_ok=True)
    known = {k for _, ks in FAMILIES for k in ks}
    families = FAMILIES + [("other", sorted(k for k in byk if k not in known))]
    for fam, kernels in families:
        ks = [k for k in kernels if k in byk]
        if not ks:
            continue
        cols = min(3, len(ks))
        rows = (len(ks) + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 3.8 * rows), squeeze=False)
        for ax in axes.flat[len(ks):]:
            ax.set_visible(False)
        for ax, k in zip(axes.flat, ks):
            pts = sorted(byk[k].values(), key=lambda p: (p["N"], p["M"]))
            xs = [p["N"] for p in pts]
            ax.plot(xs, [p["rkc"] for p in pts], "o-", label="rkc")
            tp = [p for p in pts if p["torch"]]
            ax.plot([p["N"] for p in tp], [p["torch"] for p in tp], "s--",
                    label="torch.compile")
            copies = [p["copy"] for p in pts if p["copy"]]
            if copies:
                ax.axhline(sorted(copies)[len(copies) // 2], ls=":", color="k", label="copy")
            for p in pts:
                ax.annotate("M=%d" % p["M"], (p["N"], p["rkc"]), fontsize=6,
                            textcoords="offset points", xytext=(2, -8))
            ax.set_xscale("log")
            ax.set_ylim(bottom=0)
            ax.set_title(k, fontsize=10)
            ax.set_xlabel("N (row width)")
            ax.set_ylabel("GB/s")
            ax.grid(alpha=0.3)
        axes.flat[0].legend(fontsize=8, loc="lower right")
        fig.suptitle("%s, %s: bandwidth against row width" % (fam, args.dtype))
        fig.tight_layout()
        path = os.path.join(args.out, "bw_%s.png" % fam)
        fig.savefig(path, dpi=110)
        plt.close(fig)
        print("%s: %d kernels, %d points" % (path, len(ks), sum(len(byk[k]) for k in ks)))


if __name__ == "__main__":
    main()
