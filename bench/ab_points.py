#!/usr/bin/env python3
"""bench/ab.sh's points file from two golden files: every point whose config moved.

usage: bench/ab_points.py OLD.json NEW.json > points.txt
OLD.json is the golden file before a policy change (e.g. `git show REV:testdata/golden/rkc-sm_90.json`),
NEW.json the one after (`rkc golden update`). One line a moved point, "kernel dtype MxN OLD pick",
OLD the old pick as a --config value, smallest arrays first (so a LIMIT cuts the largest); the
batch-invariant mode's files (rkc-invariant-ARCH.json) add --batch-invariant to each line, and
another policy's files --policy NAME.
"""
import json
import sys

KNOBS = ["persistent", "r_block", "m_block", "num_warps", "vec", "split", "evict", "min_ctas",
         "smem", "cluster", "coop", "grid", "dynamic", "ahead", "stash"]


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
    extra = " --batch-invariant" if new_g.get("batch_invariant") else ""
    if new_g.get("policy", "rkc") != "rkc":
        extra += f" --policy {new_g['policy']}"
    moved = []
    for key, p in new.items():
        q = old.get(key)
        if q is None or all(int(p.get(k, 0)) == int(q.get(k, 0)) for k in KNOBS):
            continue
        kernel, dtype, m, n = key
        size = 2 if dtype in ("bf16", "fp16") else 4
        cfg = ",".join(f"{k}={int(q.get(k, 0))}" for k in KNOBS)
        moved.append((m * n * size, f"{kernel} {dtype} {m}x{n} {cfg} pick{extra}"))
    print(f"# {len(moved)} {new_g['arch']} points moved: the old pick forced, the new the pick")
    for _, line in sorted(moved):
        print(line)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
