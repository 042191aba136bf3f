#!/usr/bin/env python3
"""The tables of bench/regions.sh from its logs: per kernel the overhead of the stamps and bar 2's
sum checks, then the verdicts for the five kernels furthest from copy bandwidth.

usage: bench/regions_report.py OUT     (OUT: bench/regions.sh's log directory)

Per kernel, from OUT/K.plain.log, K.regions.log, K.onewave.log and K.explain.json:
  time, stamped, overhead   --time's median without and with the stamps (the policy's config);
                            the overhead against the plain kernel timed in the stamped run's
                            process on its buffers, before and after it (rkc run --time
                            --regions), else against the time column
  %copy                     the time without stamps against the device's copy bandwidth
  launch                    the one L2-flushed launch the stamps come from
  med/launch                a CTA's time from the medians (a row block's regions' medians
                            summed, times the blocks a CTA runs) over that launch's time
  level/launch              the kernel-level column's sum over it (CTA-time over the CTAs
                            resident on average: adds up to the stamps' span)
  grid, waves               the one-wave run: every row block stamped (--regions-every 1) under
                            a one-wave persistent grid (SMs times the CTAs an SM holds), the
                            policy's own where it picks one
  med/launch                there, the regions' medians over the CTAs (a CTA's time in each
                            region, its blocks summed) added up, over that launch's time
  max/launch                the longest CTA's life over it
The report also sets the medians over CTAs against the stamps' span (the first stamp to the
last), which leaves out what no CTA's stamps see: the launch's start and its end; and against
the launch less its floor (rkc run --regions times an empty kernel of the same grid and block).
Bar 2 asks the medians to add up to within 10% of the kernel's time and the stamps to cost at
most 5% on shapes moving at least 64 MB (every shape here). Where a CTA lives for the whole
launch (one wave) the medians over CTAs of each region add up to the kernel's time less what no
CTA runs: the launch's start and the last stores' drain.

The verdict compares the dominant region (the largest share of the CTAs' time) with the cost
model's largest term of a CTA's latency (rkc explain --json, "cost"), each region read as the
term that models it (TERM below; docs/regions.md).
"""
import json
import os
import re
import sys

# The cost model's term (heuristics/cost.c, explain's cost.cta_terms_ns) that stands for a
# region's time: a pass's or a body's loads wait on DRAM round trips, later passes on the
# re-read, combines on the reductions' shuffles and barriers, a cluster's exchange on its own
# term, the row outputs on the CTA's fixed start/store/retire time; a split row's combine and the
# sums over rows after a grid's blocks are terms of the kernel's time (split_us, colsum_combine),
# not of a CTA's.
def term(region):
    if region in ("load", "fill", "pass0.loop") or region.startswith("body"):
        return "dram"
    if region == "apply" or re.fullmatch(r"pass[1-9][0-9]*\.loop", region):
        return "later_passes"
    if region.endswith(".cluster"):
        return "cluster"
    if region.endswith(".cross") or re.fullmatch(r"combine[0-9]+", region):
        return "reduction"
    if region == "rows":
        return "cta_fixed"
    if region.startswith("colsum") or region.startswith("colpass"):
        return "colsum_combine"
    if region == "between":
        return "none (latch)"  # a grid's time between row blocks: no term models it
    return "split" if region == "split" else "?"


def fields(line):
    return dict(re.findall(r"(\w+)=(\S+)", line or ""))


def grep(path, prefix):
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(prefix):
                    return line
    except OSError:
        pass
    return None


def regions(path):
    """[(name, share %)] of the region table in an rkc run --regions log."""
    out, on = [], False
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("  region "):
                    on = True
                elif on and line.startswith("  per block"):
                    break
                elif on:
                    p = line.split()
                    out.append((p[0], float(p[5].rstrip("%"))))
    except OSError:
        pass
    return out


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt(x, f="%.2f"):
    return f % x if x is not None else "?"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    plan = [l.split() for l in open(os.path.join(out, "plan.txt")) if l.strip()]
    rows = []
    for kernel, shape, mb in plan:
        p = os.path.join(out, kernel)
        plain = fields(grep(p + ".plain.log", "RESULT"))
        stamped = fields(grep(p + ".regions.log", "RESULT"))
        reg = fields(grep(p + ".regions.log", "REGIONS"))
        one = fields(grep(p + ".onewave.log", "REGIONS"))
        one_res = fields(grep(p + ".onewave.log", "RESULT"))
        try:
            cost = json.load(open(p + ".explain.json"))["cost"]
        except (OSError, ValueError, KeyError):
            cost = None
        t, s = num(plain.get("us")), num(stamped.get("us"))
        # the plain kernel timed in the stamped run's process, on its buffers, where rkc run
        # did (--time --regions): the overhead against those, else against K.plain.log's
        p0, p1 = num(reg.get("plain_us")), num(reg.get("plain_after_us"))
        base = (p0 + p1) / 2 if p0 and p1 else t
        launch = num(reg.get("kernel_us"))
        r = {"kernel": kernel, "shape": shape, "mb": mb, "time": t, "stamped": s,
             "over": ratio(s, base) - 1 if base and s else None,
             "copy": num(plain.get("copy_pct")),
             "status": stamped.get("status", "ERROR"), "launch": launch,
             "med": ratio(num(reg.get("cta_us")), launch),
             "level": ratio(num(reg.get("sum_level_us")), launch),
             "dominant": reg.get("dominant", "?"), "share": num(reg.get("share")),
             "regions": regions(p + ".regions.log"), "cost": cost,
             "grid": re.search(r'"grid":(\d+)', stamped.get("config", "")), "one": None}
        r["grid"] = int(r["grid"].group(1)) if r["grid"] else None
        per_sm, sms, ctas = num(reg.get("per_sm")), num(reg.get("sms")), num(reg.get("grid"))
        r["waves"] = ctas / (per_sm * sms) if per_sm and sms and ctas else None
        if one:
            ol = num(one.get("kernel_us"))
            g = re.search(r'"grid":(\d+)', one_res.get("config", ""))
            per_sm, sms, ctas = num(one.get("per_sm")), num(one.get("sms")), num(one.get("grid"))
            lives, fl = num(one.get("lives_sum_med_us")), num(one.get("floor_us"))
            r["one"] = {"grid": int(g.group(1)) if g else None, "launch": ol,
                        "waves": ctas / (per_sm * sms) if per_sm and sms and ctas else None,
                        "med": ratio(num(one.get("lives_sum_med_us", one.get("cta_us"))), ol),
                        "max": ratio(num(one.get("life_max_us")), ol),
                        "med_span": ratio(lives, num(one.get("span_us"))),
                        "floor": fl,
                        "med_floor": ratio(lives, ol - fl if ol and fl and ol > fl else None),
                        "level": ratio(num(one.get("sum_level_us")), ol),
                        "dominant": one.get("dominant", "?"),
                        "status": one_res.get("status", "ERROR")}
        rows.append(r)

    print("%-22s %-12s %5s %9s %9s %8s %6s %9s %6s %6s %-12s %5s | %6s %5s %9s %6s %6s %6s" % (
        "kernel", "shape", "MB", "time us", "stamped", "overhd", "%copy", "launch", "med/l",
        "lvl/l", "dominant", "share", "grid", "waves", "launch", "med/l", "max/l", "lvl/l"))
    for r in rows:
        o = r["one"] or {}
        print("%-22s %-12s %5s %9s %9s %8s %6s %9s %6s %6s %-12s %5s | %6s %5s %9s %6s %6s %6s%s%s" % (
            r["kernel"], r["shape"], r["mb"], fmt(r["time"]), fmt(r["stamped"]),
            fmt(r["over"] and 100 * r["over"], "%+.1f%%") if r["over"] is not None else "?",
            fmt(r["copy"], "%.1f"), fmt(r["launch"]), fmt(r["med"]), fmt(r["level"]),
            r["dominant"], fmt(r["share"], "%.1f"),
            o.get("grid") or ("policy %d" % r["grid"] if r["grid"] else "-"),
            fmt(o.get("waves", r["waves"] if r["grid"] else None)), fmt(o.get("launch")),
            fmt(o.get("med")), fmt(o.get("max")), fmt(o.get("level")),
            "" if r["status"] == "ok" else "  " + r["status"],
            "" if o.get("status", "ok") == "ok" else "  grid: " + o["status"]))

    def within(xs, tol):
        xs = [x for x in xs if x is not None]
        return sum(abs(x - 1) <= tol for x in xs), len(xs)
    over = [r["over"] for r in rows if r["over"] is not None]
    worst = max(rows, key=lambda r: r["over"] if r["over"] is not None else -1)
    # the one-wave check: every block stamped, under a one-wave grid (the policy's own where
    # it picks one)
    onewave = [r["one"]["med"] if r["one"] else None for r in rows]
    print("\nbar 2:")
    print("  overhead <= 5%%: %d of %d (worst %s %s)" % (
        sum(o <= 0.05 for o in over), len(over), worst["kernel"],
        fmt(worst["over"] and 100 * worst["over"], "%+.1f%%")))
    print("  checks of the stamped kernel: %d of %d ok; under the one-wave grid: %d of %d" % (
        sum(r["status"] == "ok" for r in rows), len(rows),
        sum(r["one"]["status"] == "ok" for r in rows if r["one"]),
        sum(1 for r in rows if r["one"])))
    print("  the medians over CTAs within 10%% of the launch, one-wave grid: %d of %d" % within(onewave, 0.1))
    outside = sorted(r["one"]["launch"] * (1 - r["one"]["level"]) for r in rows
                     if r["one"] and r["one"]["launch"] and r["one"]["level"])
    if outside:
        print("    the launch less the stamps' span (no CTA's stamps see it): %.1f to %.1f us, "
              "median %.1f" % (outside[0], outside[-1], outside[len(outside) // 2]))
    print("  the medians over CTAs within 10%% of the stamps' span, one-wave grid: %d of %d" % within(
        [r["one"]["med_span"] if r["one"] else None for r in rows], 0.1))
    floors = sorted(r["one"]["floor"] for r in rows if r["one"] and r["one"]["floor"])
    if floors:
        print("    a launch's floor (an empty kernel of the same grid and block): %.1f to %.1f us, "
              "median %.1f" % (floors[0], floors[-1], floors[len(floors) // 2]))
        print("  the medians over CTAs within 10%% of the launch less its floor, one-wave grid: "
              "%d of %d" % within([r["one"]["med_floor"] if r["one"] else None for r in rows], 0.1))
    print("  a CTA's time from the medians within 10%% of the launch, the policy's config: %d of %d" % within(
        [r["med"] for r in rows], 0.1))
    print("  kernel-level column within 10%% of the launch, the policy's config: %d of %d" % within(
        [r["level"] for r in rows], 0.1))
    waves = [r["one"]["waves"] for r in rows if r["one"] and r["one"]["waves"] is not None]
    print("  one-wave grids at most one wave: %d of %d" % (sum(w <= 1 + 1e-9 for w in waves), len(waves)))

    far = sorted([r for r in rows if r["copy"] is not None], key=lambda r: r["copy"])[:5]
    print("\nverdicts: the five kernels furthest from copy bandwidth (dominant region against the "
          "cost model's largest term of a CTA's latency)")
    print("%-22s %6s  %-26s %-14s %-30s %s" % ("kernel", "%copy", "dominant region (share)",
                                                "its term", "model's largest (of the CTA)",
                                                "agree"))
    for r in far:
        c = r["cost"]
        big, frac = "?", None
        if c:
            terms = c["cta_terms_ns"]
            big = c["cta_largest"]
            tot = sum(terms.values())
            frac = terms[big] / tot if tot else None
        dom = r["regions"] and max(r["regions"], key=lambda x: x[1])
        name, share = dom if dom else (r["dominant"], r["share"])
        t = term(name)
        print("%-22s %6s  %-26s %-14s %-30s %s" % (
            r["kernel"], fmt(r["copy"], "%.1f"), "%s (%s%%)" % (name, fmt(share, "%.1f")), t,
            "%s (%s)" % (big, fmt(frac and 100 * frac, "%.0f%%")),
            "yes" if t == big else "no"))
        if len(r["regions"]) > 1:
            print("%-22s %6s  next: %s" % ("", "", ", ".join(
                "%s %.1f%%" % x for x in sorted(r["regions"], key=lambda x: -x[1])[1:3])))


if __name__ == "__main__":
    main()
