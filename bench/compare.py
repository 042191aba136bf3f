#!/usr/bin/env python3
"""Two bench/gpu_run.sh runs of the same points side by side: usage compare.py A/points.csv
B/points.csv. Prints, per point, both times, their ratio (A over B: above 1 means B is
faster) and both configs where they differ, then the geomean ratio per kernel and dtype and
overall. Points that are not ok in either run are listed and left out of the ratios; a run
timed without checks (gpu_run.sh's CHECK=0, status "unchecked") counts as ok here."""
import csv
import math
import sys


def load(path):
    with open(path, newline="") as f:
        return {
            (r["suite"], r["kernel"], r["dtype"], int(r["M"]), int(r["N"])): r
            for r in csv.DictReader(f)
        }


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def main(a_path, b_path):
    a, b = load(a_path), load(b_path)
    keys = sorted(set(a) & set(b))
    ratios, bad = {}, []
    print("| kernel | dtype | shape | A µs | B µs | A/B | B config |")
    print("|---|---|---|---|---|---|---|")
    for k in keys:
        ra, rb = a[k], b[k]
        timed = ("ok", "unchecked")
        if ra.get("status") not in timed or rb.get("status") not in timed or not ra.get("us"):
            bad.append((k, ra.get("status"), rb.get("status")))
            continue
        r = float(ra["us"]) / float(rb["us"])
        ratios.setdefault((k[1], k[2]), []).append(r)
        cfg = rb.get("config", "") if rb.get("config") != ra.get("config") else "same"
        print(f"| {k[1]} | {k[2]} | {k[3]}x{k[4]} | {float(ra['us']):.1f} | "
              f"{float(rb['us']):.1f} | {r:.3f} | {cfg} |")
    print()
    print("| kernel | dtype | points | geomean A/B | min | max |")
    print("|---|---|---|---|---|---|")
    for (kern, dt), rs in sorted(ratios.items()):
        print(f"| {kern} | {dt} | {len(rs)} | {geomean(rs):.3f} | {min(rs):.3f} | "
              f"{max(rs):.3f} |")
    allr = [r for rs in ratios.values() for r in rs]
    print(f"\n{len(allr)} points in both runs: geomean A/B {geomean(allr):.3f}; "
          f"B faster by >3% on {sum(r > 1.03 for r in allr)}, slower by >3% on "
          f"{sum(r < 1 / 1.03 for r in allr)}")
    for k, sa, sb in bad:
        print(f"not compared: {k}: A {sa}, B {sb}")
    if len(keys) < len(a) or len(keys) < len(b):
        print(f"only in one run: {len(set(a) ^ set(b))} points")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: compare.py A/points.csv B/points.csv")
    main(sys.argv[1], sys.argv[2])
