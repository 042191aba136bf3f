#!/usr/bin/env python3
"""The table of bench/ab.sh's log: per point the best of each build's runs, new/old, the checks.

usage: bench/ab_report.py AB.txt
Prints one row a point (kernel, dtype, shape, extra arguments, old and new microseconds: the
minimum of each build's runs, new/old, the configs when they differ), then the geomean of new/old
over the points both builds timed, the points slower or faster by more than 2%, and every run
whose status was not ok or unchecked (a FAIL, an ERROR, a timeout); the points left unrun at the
time limit are listed, not counted.
"""
import math
import re
import sys


def fields(result):
    return dict(re.findall(r"(\w+)=(\S+)", result))


def main(path):
    points, order, bad, skipped = {}, [], [], []
    for line in open(path):
        if " | RESULT" not in line:
            continue
        head, result = line.rstrip("\n").split(" | ", 1)
        tag, rest = head.split(" ", 1)
        f = fields(result)
        # "#N " first (the points file's line, bench/ab.sh): two lines of one point stay apart
        line_no = re.match(r"#(\d+) ", rest)
        if line_no:
            rest = rest[line_no.end():]
        key = (f.get("kernel", "?"), f.get("dtype", "?"), rest.strip(),
               line_no.group(1) if line_no else "")
        if key not in points:
            points[key] = {"old": [], "new": [], "cfg": {}}
            order.append(key)
        status = f.get("status", "ERROR")
        if status == "SKIPPED":
            skipped.append(" ".join(key[:3]))
            continue
        if status not in ("ok", "unchecked"):
            bad.append(f"{tag} {' '.join(key[:3])}: {status}")
            continue
        if tag in ("old", "new"):
            points[key][tag].append(float(f["us"]))
            points[key]["cfg"][tag] = f.get("config", "")
    ratios = []
    print(f"{'kernel':24} {'dtype':5} {'point':22} {'old us':>9} {'new us':>9} {'new/old':>8}")
    for key in order:
        p = points[key]
        if not p["old"] or not p["new"]:
            print(f"{key[0]:24} {key[1]:5} {key[2]:22} {'-':>9} {'-':>9} {'-':>8}")
            continue
        o, n = min(p["old"]), min(p["new"])
        ratios.append((n / o, key))
        cfg = p["cfg"]
        moved = "" if cfg.get("old") == cfg.get("new") else f"  {cfg.get('old')} -> {cfg.get('new')}"
        print(f"{key[0]:24} {key[1]:5} {key[2]:22} {o:9.2f} {n:9.2f} {n / o:8.3f}{moved}")
    if ratios:
        g = math.exp(sum(math.log(r) for r, _ in ratios) / len(ratios))
        slower = sum(r > 1.02 for r, _ in ratios)
        faster = sum(r < 0.98 for r, _ in ratios)
        print(f"\n{len(ratios)} points: new/old {g:.3f} by geomean, "
              f"{faster} faster by over 2%, {slower} slower by over 2%, "
              f"range {min(ratios)[0]:.3f}-{max(ratios)[0]:.3f}")
    if skipped:
        print(f"not run (past the time limit): {len(skipped)}: " + "; ".join(skipped))
    print(f"runs not ok: {len(bad)}")
    for b in bad:
        print("  " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
