#!/usr/bin/env python3
"""The short table of a bench/gpu_run.sh run: reads OUT/run/*.log and OUT/sanitize/*.log (the
RESULT lines rkc run prints), writes OUT/points.csv and OUT/summary.md, prints the tables: per
kernel and dtype over every suite, then per suite and dtype (a suite is the first dot-separated
field of a run log's name, SUITE.KERNEL.DTYPE.log, so any testdata/shapes/<suite>.json works).
The %copy columns count every timed point whose check did not fail: checked ok, or timed and not
checked (gpu_run.sh CHECK=0: status unchecked); the ok column counts the checked ones."""
import csv
import glob
import math
import os
import re
import sys

BIG_MB = 64.0  # the bandwidth bar counts shapes moving at least this much


def results(path):
    """The RESULT lines of one log, as dicts."""
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("RESULT "):
                yield dict(kv.split("=", 1) for kv in line.split()[1:])


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def main(out):
    rows = []
    for path in sorted(glob.glob(os.path.join(out, "run", "*.log"))):
        suite = os.path.basename(path).split(".")[0]
        for r in results(path):
            r["suite"] = suite
            rows.append(r)
    sanitize = {}
    for path in sorted(glob.glob(os.path.join(out, "sanitize", "*.log"))):
        kernel, dtype = os.path.basename(path)[: -len(".log")].rsplit(".", 1)
        text = open(path, errors="replace").read()
        m = re.search(r"ERROR SUMMARY: (\d+) error", text)
        res = list(results(path))
        bad = sum(r.get("status") != "ok" for r in res)
        if m is None:
            verdict = "no summary"
        elif int(m.group(1)):
            verdict = f"{m.group(1)} errors"
        else:
            verdict = "clean" if not bad else f"clean, {bad} checks failed"
        sanitize.setdefault(kernel, []).append(f"{dtype} {verdict}")

    fields = ["suite", "kernel", "dtype", "M", "N", "status", "worst_rel_l2", "us", "gbps",
              "copy_pct", "mbytes", "regs", "local", "config"]
    with open(os.path.join(out, "points.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)

    def num(r, k):
        try:
            return float(r.get(k, "nan"))
        except ValueError:
            return float("nan")

    def timed(rs):
        """The points whose time counts: checked ok, or timed and not checked."""
        return [r for r in rs if r.get("status") in ("ok", "unchecked") and num(r, "us") > 0]

    keys = []
    for key in [(r["kernel"], r["dtype"]) for r in rows] + [
            (k, v.split(" ", 1)[0]) for k, vs in sorted(sanitize.items()) for v in vs]:
        if key not in keys:
            keys.append(key)
    lines = ["| kernel | dtype | points | ok | worst rel L2 | %copy geomean | %copy >=64MB | "
             "max local B | sanitizer |", "|---|---|---|---|---|---|---|---|---|"]
    for k, dt in keys:
        rs = [r for r in rows if (r["kernel"], r["dtype"]) == (k, dt)]
        ok = [r for r in rs if r.get("status") == "ok"]
        worst = max((num(r, "worst_rel_l2") for r in rs if "worst_rel_l2" in r), default=float("nan"))
        pct = [num(r, "copy_pct") for r in timed(rs)]
        big = [num(r, "copy_pct") for r in timed(rs) if num(r, "mbytes") >= BIG_MB]
        local = max((int(r.get("local", 0)) for r in rs if "local" in r), default=0)
        san = ", ".join(v for v in sanitize.get(k, []) if v.startswith(dt + " "))
        lines.append(f"| {k} | {dt} | {len(rs)} | {len(ok)} | {worst:.2e} | {geomean(pct):.1f} | "
                     f"{geomean(big):.1f} | {local} | {san.split(' ', 1)[-1] if san else '-'} |")
    # The same points per suite (any testdata/shapes/<suite>.json: the log name's first field).
    lines += ["", "| suite | dtype | points | ok | worst rel L2 | %copy geomean | %copy >=64MB |",
              "|---|---|---|---|---|---|---|"]
    for s, dt in sorted({(r["suite"], r["dtype"]) for r in rows}):
        rs = [r for r in rows if (r["suite"], r["dtype"]) == (s, dt)]
        ok = [r for r in rs if r.get("status") == "ok"]
        worst = max((num(r, "worst_rel_l2") for r in rs if "worst_rel_l2" in r), default=float("nan"))
        pct = [num(r, "copy_pct") for r in timed(rs)]
        big = [num(r, "copy_pct") for r in timed(rs) if num(r, "mbytes") >= BIG_MB]
        lines.append(f"| {s} | {dt} | {len(rs)} | {len(ok)} | {worst:.2e} | "
                     f"{geomean(pct):.1f} | {geomean(big):.1f} |")
    counted = timed(rows)
    status = {}
    for r in rows:
        status[r.get("status", "?")] = status.get(r.get("status", "?"), 0) + 1
    lines.append("")
    lines.append(f"points: {len(rows)} ({', '.join(f'{v} {k}' for k, v in sorted(status.items()))}); "
                 f"kernels checked and correct on every point: "
                 f"{sum(all(r.get('status') == 'ok' for r in rows if r['kernel'] == k) for k in {r['kernel'] for r in rows})}"
                 f"/{len({r['kernel'] for r in rows})}")
    for dt in sorted({r["dtype"] for r in rows}):
        big = [num(r, "copy_pct") for r in counted if r["dtype"] == dt and num(r, "mbytes") >= BIG_MB]
        lines.append(f"{dt}: geomean %copy over {len(big)} shapes moving >= {BIG_MB:.0f} MB: "
                     f"{geomean(big):.1f}")
    big = [num(r, "copy_pct") for r in counted if num(r, "mbytes") >= BIG_MB]
    lines.append(f"all: geomean %copy over {len(big)} shapes moving >= {BIG_MB:.0f} MB: {geomean(big):.1f}")
    dirty = [k for k, v in sanitize.items() if any(not s.split(" ", 1)[1].startswith("clean") for s in v)]
    lines.append(f"memcheck: {len(sanitize) - len(dirty)}/{len(sanitize)} kernels clean"
                 + (f" (not: {', '.join(sorted(dirty))})" if dirty else ""))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "bench/out")
