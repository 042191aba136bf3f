#!/usr/bin/env python3
"""bench/regions_overhead.sh's table: per shape its plain times (two runs), the stamped time and
the overhead (stamped against the plains' mean), then the count within 5% (issue 12's bar), the
median and the worst, and the plain runs' spread (the drift the overhead cannot be read below).

usage: bench/regions_overhead.py OUT     (the directory bench/regions_overhead.sh wrote)
"""
import os
import statistics
import sys

from regions_report import fields


def results(path):
    """{(kernel, M, N): (us, status, copy_pct)} of a log's RESULT lines."""
    got = {}
    if os.path.exists(path):
        for line in open(path):
            if line.startswith("RESULT ") and "us" in (f := fields(line)):
                got[(f["kernel"], int(f["M"]), int(f["N"]))] = (
                    float(f["us"]), f["status"], float(f["copy_pct"]))
    return got


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    out = argv[1]
    plan = [line.split() for line in open(os.path.join(out, "plan.txt")) if line.strip()]
    runs = {}
    for kernel in dict.fromkeys(p[0] for p in plan):
        for v in ("plain", "stamped", "plain2"):
            runs.setdefault(v, {}).update(results(os.path.join(out, f"{kernel}.{v}.log")))
    print(f"{'kernel':24} {'shape':14} {'MB':>6} {'plain us':>9} {'again':>9} {'stamped':>9} "
          f"{'overhd':>7} {'spread':>7} {'%copy':>6} check")
    over, spread, missing, bad = [], [], [], []
    for kernel, shape, mb in plan:
        M, N = (int(x) for x in shape.split("x"))
        key = (kernel, M, N)
        r = [runs[v].get(key) for v in ("plain", "stamped", "plain2")]
        if None in r:
            missing.append(f"{kernel} {shape}")
            print(f"{kernel:24} {shape:14} {mb:>6} (no result: "
                  f"{', '.join(v for v, x in zip(('plain', 'stamped', 'plain2'), r) if x is None)})")
            continue
        base = (r[0][0] + r[2][0]) / 2
        o = r[1][0] / base - 1
        sp = abs(r[0][0] - r[2][0]) / base
        over.append((o, kernel, shape))
        spread.append(sp)
        if r[1][1] != "ok":
            bad.append(f"{kernel} {shape}")
        print(f"{kernel:24} {shape:14} {mb:>6} {r[0][0]:9.2f} {r[2][0]:9.2f} {r[1][0]:9.2f} "
              f"{100 * o:+6.1f}% {100 * sp:6.1f}% {r[0][2]:6.1f} {r[1][1]}")
    if not over:
        print("no shape ran")
        return 1
    print()
    print(f"overhead <= 5%: {sum(o <= 0.05 for o, _, _ in over)} of {len(over)} shapes; median "
          f"{100 * statistics.median(o for o, _, _ in over):+.1f}%")
    print("worst: " + ", ".join(f"{k} {s} {100 * o:+.1f}%" for o, k, s in sorted(over)[-3:][::-1]))
    print(f"the plain runs' spread: median {100 * statistics.median(spread):.1f}%, "
          f"max {100 * max(spread):.1f}%")
    print(f"stamped runs checked ok against float64: {len(over) - len(bad)} of {len(over)}"
          + (f" (not ok: {', '.join(bad)})" if bad else ""))
    if missing:
        print(f"no result at {len(missing)}: {', '.join(missing)}")
    skipped = os.path.join(out, "skipped.txt")
    if os.path.exists(skipped) and open(skipped).read().split():
        print("kernels skipped (time): " + " ".join(open(skipped).read().split()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
