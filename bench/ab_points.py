#!/usr/bin/env python3
"""bench/ab.sh's points file from two golden files: every point whose config moved.

usage: bench/ab_points.py OLD.json NEW.json > points.txt
OLD.json is the golden file before a policy change (e.g. `git show REV:testdata/golden/rkc-sm_90.json`),
NEW.json the one after (`rkc golden update`). One line a moved point, "kernel dtype MxN OLD pick",
OLD the old pick as a --config value, smallest arrays first (so a LIMIT cuts the largest); another
policy's files add --policy NAME. The batch-invariant mode's files (rkc-invariant-ARCH.json) give
both picks as --config values and no --batch-invariant: under that flag a forced config must keep
the layout the mode picks now, which the old pick does not, and a config's PTX is the same with
the flag or without it.
"""
import json
import sys

KNOBS = ["persistent", "r_block", "m_block", "num_warps", "vec", "split", "evict", "min_ctas",
         "smem", "cluster", "coop", "grid", "dynamic", "ahead", "stash", "steps", "colpass"]


def config_value(p):
    """A golden point's config as a --config value."""
    return ",".join(f"{k}={int(p.get(k, 0))}" for k in KNOBS)


def points(path):
    with open(path) as f:
        g = json.load(f)
    return g, {(p["kernel"], p["dtype"], p["M"], p["N"]): p for p in g["points"]}


def main(old_path, new_path):
    old_g, old = points(old_path)
    new_g, new = points(new_path)
    if (old_g.get("arch"), old_g.get("policy")) != (new_g.get("arch"), new_g.get("policy")):
        sys.exit("ab_points: the two files are of different archs or policies")
    if old_g.get("batch_invariant", False) != new_g.get("batch_invariant", False):
        sys.exit("ab_points: one file is of the batch-invariant mode and the other is not")
    invariant = new_g.get("batch_invariant", False)
    extra = ""
    if new_g.get("policy", "rkc") != "rkc":
        extra += f" --policy {new_g['policy']}"
    moved = []
    for key, p in new.items():
        q = old.get(key)
        if q is None or all(int(p.get(k, 0)) == int(q.get(k, 0)) for k in KNOBS):
            continue
        kernel, dtype, m, n = key
        size = 2 if dtype in ("bf16", "fp16") else 4
        pick = config_value(p) if invariant else "pick"
        moved.append((m * n * size, f"{kernel} {dtype} {m}x{n} {config_value(q)} {pick}{extra}"))
    what = "the new pick forced too (batch-invariant)" if invariant else "the new the pick"
    print(f"# {len(moved)} {new_g['arch']} points moved: the old pick forced, {what}")
    for _, line in sorted(moved):
        print(line)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
