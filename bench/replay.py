#!/usr/bin/env python3
"""Replay the policy's picks against timings already recorded: no GPU.

usage: bench/replay.py [--rkc BIN] [--base BIN] [--device PREFIX] [--since YYYY-MM-DD]
                       [--results DIR] [--worst N]
       bench/replay.py --check-format GOLDEN.json [--rkc BIN]

bench/results holds every `rkc tune` table (one config a row, its measured microseconds) and
every bench/ab.sh table (the two builds' picks as JSON, each timed) of earlier sessions. For each
point timed there (kernel, dtype, M x N), this asks `rkc explain --json` of build BIN for its pick
and looks its config up among the configs timed at that point on the device: the pick's time over
the best recorded there says how near the best the pick is, at the points where the pick was
timed ("covered"). With --base, the same for a second build, and the points whose pick moved
between the two: the moved picks whose old and new configs were both timed give new/old from the
record, the others are listed as untimed (time them on the GPU: bench/ab.sh).

A config's time is the latest session's (the directory's date), its minimum where that session
timed it more than once: later sessions ran later codegen. Times from different sessions differ
by a percent or two; a replay is a triage, not a measurement. Only `rkc explain` runs, with
ptxas on PATH as the GPU host has it (the spill guard).

--check-format: the short form this reads and writes against rkc's own (heuristics/config.c,
config_short), over a golden file's points: each point's knobs to text and back, and every 40th
point's text against `rkc explain --json` (without ptxas, as the golden files are made).
"""
import argparse
import glob
import json
import math
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNEL_DIRS = ["testdata/kernels", "bench/heldout", "tests/codegen", "tests/heuristics/kernels"]
DTYPES = {"bf16": "bf16", "fp16": "fp16", "f16": "fp16", "fp32": "fp32", "f32": "fp32"}

# config_short's tokens (heuristics/config.c) and the JSON keys they stand for
DEFAULTS = {"persistent": 0, "r_block": 0, "m_block": 1, "num_warps": 1, "vec": 1, "split": 1,
            "cluster": 1, "coop": 0, "smem": 0, "stash": 0, "grid": 0, "dynamic": 0,
            "ahead": 0, "steps": 0, "colpass": 0, "evict": 0, "min_ctas": 1}


def parse_short(s):
    """config_short's text to a dict of knobs, or None where a token is unknown."""
    c = dict(DEFAULTS)
    toks = s.split()
    i = 0
    while i < len(toks):
        t = toks[i]
        if t == "P" and i + 1 < len(toks) and toks[i + 1].startswith("r"):
            c["persistent"], c["r_block"] = 1, int(toks[i + 1][1:])
            i += 2
            continue
        if re.fullmatch(r"L\d+", t):
            c["persistent"], c["r_block"] = 0, int(t[1:])
        elif re.fullmatch(r"m\d+", t):
            c["m_block"] = int(t[1:])
        elif re.fullmatch(r"w\d+", t):
            c["num_warps"] = int(t[1:])
        elif re.fullmatch(r"v\d+", t):
            c["vec"] = int(t[1:])
        elif re.fullmatch(r"s\d+", t):
            c["split"] = int(t[1:])
        elif re.fullmatch(r"[cx]\d+", t):
            c["cluster"], c["coop"] = int(t[1:]), int(t[0] == "x")
        elif t in ("S", "Sa"):
            c["smem"] = 2 if t == "Sa" else 1
        elif t == "st":
            c["stash"] = 1
        elif re.fullmatch(r"gd?\d+", t):
            c["dynamic"], c["grid"] = int(t[1] == "d"), int(t.lstrip("gd"))
        elif re.fullmatch(r"a\d*", t):
            c["ahead"] = int(t[1:]) if len(t) > 1 else 1
        elif t == "t":
            c["steps"] = 1
        elif t == "cp":
            c["colpass"] = 1
        elif t == "e":
            c["evict"] = 1
        elif re.fullmatch(r"k\d+", t):
            c["min_ctas"] = int(t[1:])
        else:
            return None
        i += 1
    return c


def key_of(c):
    return tuple(int(c.get(k, v)) for k, v in sorted(DEFAULTS.items()))


def short_of(key):
    c = dict(zip(sorted(DEFAULTS), key))
    s = ("P r%d" % c["r_block"]) if c["persistent"] else ("L%d" % c["r_block"])
    s += " m%d w%d v%d" % (c["m_block"], c["num_warps"], c["vec"])
    s += " s%d" % c["split"] if c["split"] > 1 else ""
    s += " %s%d" % ("x" if c["coop"] else "c", c["cluster"]) if c["cluster"] > 1 else ""
    s += {0: "", 1: " S", 2: " Sa"}.get(c["smem"], " S?")
    s += " st" if c["stash"] else ""
    s += " g%s%d" % ("d" if c["dynamic"] else "", c["grid"]) if c["grid"] > 0 else ""
    s += (" a%d" % c["ahead"] if c["ahead"] > 1 else " a") if c["ahead"] else ""
    s += " t" if c["steps"] else ""
    s += " cp" if c["colpass"] else ""
    s += " e" if c["evict"] else ""
    s += " k%d" % c["min_ctas"] if c["min_ctas"] > 1 else ""
    return s


ROW = re.compile(r"^\s*(?:\d+|-)\s+\S+\s+(.+?)\s+[\d.]+\s+([\d.]+)\s+[\d.]+%\s+\d+\s+\d+\s+(ok|unchecked)\b")
HEAD = re.compile(r"^(\w+) (bf16|fp16|fp32|f16|f32) (\d+)x(\d+): \d+ candidates")
AB = re.compile(r"^(\w+)\s+(bf16|fp16|fp32|f16|f32)\s+(\d+)x(\d+)\s+([\d.]+)\s+([\d.]+)\s+[\d.]+\s+(\{.*\}) -> (\{.*\})\s*$")


def session_date(path):
    m = re.search(r"-(\d{4}-\d{2}-\d{2})", path)
    return m.group(1) if m else "0000-00-00"


def record(times, point, key, us, date):
    at = times.setdefault(point, {})
    old = at.get(key)
    if old is None or date > old[1] or (date == old[1] and us < old[0]):
        at[key] = (us, date)


def load(results, device, since):
    """{point: {config key: (us, date)}}, point = (kernel, dtype, M, N)."""
    times = {}
    for path in sorted(glob.glob(os.path.join(results, "**", "*"), recursive=True)):
        top = os.path.relpath(path, results).split(os.sep)[0]
        if not os.path.isfile(path) or not top.startswith(device) or path.endswith(".gz"):
            continue
        date = session_date(top)
        if date < since:
            continue
        try:
            text = open(path, errors="replace").read()
        except OSError:
            continue
        if "candidates" in text and "TUNE " in text:
            point = None
            for line in text.splitlines():
                h = HEAD.match(line)
                if h:
                    point = (h.group(1), DTYPES[h.group(2)], int(h.group(3)), int(h.group(4)))
                    continue
                r = ROW.match(line) if point else None
                if r:
                    c = parse_short(r.group(1))
                    if c:
                        record(times, point, key_of(c), float(r.group(2)), date)
        for line in text.splitlines():
            a = AB.match(line)
            if not a:
                continue
            point = (a.group(1), DTYPES[a.group(2)], int(a.group(3)), int(a.group(4)))
            for cfg, us in ((a.group(7), a.group(5)), (a.group(8), a.group(6))):
                try:
                    record(times, point, key_of(json.loads(cfg)), float(us), date)
                except (ValueError, TypeError):
                    pass
    return times


def kernel_file(name):
    for d in KERNEL_DIRS:
        p = os.path.join(ROOT, d, name + ".rk")
        if os.path.exists(p):
            return p
    return None


def pick(rkc, point):
    k, dt, M, N = point
    path = kernel_file(k)
    if not path:
        return None
    out = subprocess.run([rkc, "explain", path, "--shape", "%dx%d" % (M, N), "--dtype", dt,
                          "--json"], capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        return None
    c = parse_short(json.loads(out.stdout)["config_short"])
    return key_of(c) if c else None


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def replay(rkc, times):
    rows = {}
    for point in sorted(times):
        key = pick(rkc, point)
        if key is None:
            continue
        best = min(us for us, _ in times[point].values())
        got = times[point].get(key)
        rows[point] = (key, got[0] if got else None, best)
    return rows


def name(point):
    return "%s %s %dx%d" % point


def summary(label, rows, worst):
    timed = {p: r for p, r in rows.items() if r[1] is not None}
    ratios = [r[1] / r[2] for r in timed.values()]
    within = sum(x <= 1.05 for x in ratios)
    print("%s: %d points timed before; the pick among the configs timed at %d (%.0f%%); "
          "pick/best %.3f by geomean, within 5%% of the best at %d of %d"
          % (label, len(rows), len(timed), 100.0 * len(timed) / max(1, len(rows)),
             geomean(ratios), within, len(timed)))
    far = sorted(timed.items(), key=lambda pr: -pr[1][1] / pr[1][2])[:worst]
    for p, (key, us, best) in far:
        print("  %-44s %-34s %9.2f us  %.3fx the best (%.2f)" % (name(p), short_of(key), us,
                                                                  us / best, best))


def check_format(rkc, golden):
    g = json.load(open(golden))
    bad = 0
    points = g["points"]
    for p in points:
        key = key_of(p)
        back = parse_short(short_of(key))
        if back is None or key_of(back) != key:
            bad += 1
            print("round trip: %s %s %dx%d: %s" % (p["kernel"], p["dtype"], p["M"], p["N"],
                                                   short_of(key)))
    env = dict(os.environ, PATH="/nonexistent")
    checked = 0
    for p in points[::40]:
        path = kernel_file(p["kernel"])
        if not path:
            continue
        cmd = [rkc, "explain", path, "--shape", "%dx%d" % (p["M"], p["N"]), "--dtype",
               p["dtype"], "--arch", g["arch"], "--json"]
        if "invariant" in os.path.basename(golden):
            cmd.append("--batch-invariant")
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env)
        if out.returncode != 0:
            bad += 1
            print("rkc explain failed: %s\n%s" % (" ".join(cmd), out.stderr))
            continue
        checked += 1
        got = json.loads(out.stdout)["config_short"]
        if got != short_of(key_of(p)):
            bad += 1
            print("%s %s %dx%d: rkc says %r, this writes %r" % (p["kernel"], p["dtype"], p["M"],
                                                             p["N"], got, short_of(key_of(p))))
    print("format: %d points round-trip, %d checked against rkc explain, %d wrong"
          % (len(points), checked, bad))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rkc", default=os.path.join(ROOT, "build-rel", "rkc"))
    ap.add_argument("--base", help="a second build: the picks that moved between the two")
    ap.add_argument("--device", default="h200-", help="results directories' prefix (h200-)")
    ap.add_argument("--since", default="2026-11-28", help="sessions from this date (2026-11-28)")
    ap.add_argument("--results", default=os.path.join(ROOT, "bench", "results"))
    ap.add_argument("--worst", type=int, default=10, help="how many of the farthest to list")
    ap.add_argument("--check-format", metavar="GOLDEN", help="check the short form and exit")
    a = ap.parse_args()
    if a.check_format:
        sys.exit(check_format(a.rkc, a.check_format))
    times = load(a.results, a.device, a.since)
    if not times:
        sys.exit("replay: no timings under %s for %s* since %s" % (a.results, a.device, a.since))
    new = replay(a.rkc, times)
    summary("build", new, a.worst)
    if not a.base:
        return
    old = replay(a.base, times)
    summary("base", old, a.worst)
    moved = [p for p in new if p in old and new[p][0] != old[p][0]]
    both = [p for p in moved if new[p][1] is not None and old[p][1] is not None]
    print("moved: %d picks; %d with both configs timed, new/old %.3f by geomean"
          % (len(moved), len(both), geomean([new[p][1] / old[p][1] for p in both])))
    for p in moved:
        n, o = new[p], old[p]
        t = "%.3f" % (n[1] / o[1]) if p in both else "untimed"
        print("  %-44s %-34s -> %-34s %s" % (name(p), short_of(o[0]), short_of(n[0]), t))


if __name__ == "__main__":
    main()
