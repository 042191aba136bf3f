#!/usr/bin/env python3
"""bench/regions_overhead.sh's table: per shape the kernel's time without the stamps before and
after the stamped run (the same process, the same buffers), the stamped time and the overhead
(stamped against the plain times' mean), the stamping reported (`every`: 1 block in it stamped)
and, where rkc run timed both, the other's every and overhead (docs/regions.md, "Which
stamping"), then the count within 5% (issue 12's bar), the median and the worst, and the plain
times' spread (the drift the overhead cannot be read below).

usage: bench/regions_overhead.py OUT     (the directory bench/regions_overhead.sh wrote)
"""
import os
import statistics
import sys

from regions_report import fields


def other_cost(f):
    """The other stamping's every and overhead (rkc run's choice, docs/regions.md "Which
    stamping"), or "-" when only one ran."""
    if "other_every" not in f:
        return "-"
    base = (float(f["other_plain_us"]) + float(f["other_plain_after_us"])) / 2
    return f"{f['other_every']}:{100 * (float(f['other_us']) / base - 1):+.1f}%"


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    out = argv[1]
    plan = [line.split() for line in open(os.path.join(out, "plan.txt")) if line.strip()]
    res, plain = {}, {}
    for kernel in dict.fromkeys(p[0] for p in plan):
        path = os.path.join(out, f"{kernel}.log")
        for line in open(path) if os.path.exists(path) else []:
            f = fields(line)
            if "kernel" not in f:
                continue
            key = (f["kernel"], int(f["M"]), int(f["N"]))
            if line.startswith("RESULT ") and "us" in f:
                res[key] = (float(f["us"]), f["status"], float(f["copy_pct"]))
            elif line.startswith("REGIONS ") and "plain_us" in f:
                plain[key] = (float(f["plain_us"]), float(f["plain_after_us"]), f["every"],
                              other_cost(f))
    print(f"{'kernel':24} {'shape':14} {'MB':>6} {'plain us':>9} {'after':>9} {'stamped':>9} "
          f"{'overhd':>7} {'every':>5} {'other':>11} {'spread':>7} {'%copy':>6} check")
    over, spread, missing, bad = [], [], [], []
    for kernel, shape, mb in plan:
        M, N = (int(x) for x in shape.split("x"))
        key = (kernel, M, N)
        if key not in res or key not in plain:
            missing.append(f"{kernel} {shape}")
            print(f"{kernel:24} {shape:14} {mb:>6} (no result)")
            continue
        (us, status, pct), (p0, p1, every, other) = res[key], plain[key]
        base = (p0 + p1) / 2
        o = us / base - 1
        sp = abs(p0 - p1) / base
        over.append((o, kernel, shape))
        spread.append(sp)
        if status != "ok":
            bad.append(f"{kernel} {shape}")
        print(f"{kernel:24} {shape:14} {mb:>6} {p0:9.2f} {p1:9.2f} {us:9.2f} {100 * o:+6.1f}% "
              f"{every:>5} {other:>11} {100 * sp:6.1f}% {pct * us / base:6.1f} {status}")
    if not over:
        print("no shape ran")
        return 1
    print()
    print(f"overhead <= 5%: {sum(o <= 0.05 for o, _, _ in over)} of {len(over)} shapes; median "
          f"{100 * statistics.median(o for o, _, _ in over):+.1f}%")
    print("worst: " + ", ".join(f"{k} {s} {100 * o:+.1f}%" for o, k, s in sorted(over)[-3:][::-1]))
    both = [p[3] for p in plain.values() if p[3] != "-"]
    if both:
        print(f"two stampings ran at {len(both)} shapes; every block kept at "
              f"{sum(p[2] == '1' and p[3] != '-' for p in plain.values())}")
    print(f"the plain times' spread: median {100 * statistics.median(spread):.1f}%, "
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
