#!/usr/bin/env python3
"""The suites' shapes by the bytes they move: "kernel MxN MB" a line, for bench/regions.sh and
bench/regions_overhead.sh. A shape's bytes: each [M,N], [M] and [N] input and output read or
written once at the dtype (T) or its own type, as `rkc print --json` lists the parameters.

usage: bench/suite_shapes.py RKC DTYPE "SUITES" "KERNELS" MIN_MB MAX_MB [--largest]
  every distinct shape of SUITES (names in testdata/shapes) of each kernel in KERNELS that moves
  at least MIN_MB and at most MAX_MB (0: no bound), smallest first; with --largest one a kernel:
  the largest within the bounds, else the fewest bytes above MIN_MB, else 8192x8192 (a kernel in
  none of the suites)
"""
import json
import subprocess
import sys

SIZE = {"bf16": 2, "f16": 2, "fp16": 2, "f32": 4, "fp32": 4, "f8e4m3": 1, "f8e5m2": 1, "i64": 8,
        "i32": 4, "i8": 1, "bool": 1}


def main(argv):
    if len(argv) not in (7, 8) or (len(argv) == 8 and argv[7] != "--largest"):
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    rkc, dtype, suites, kernels = argv[1], argv[2], argv[3].split(), argv[4].split()
    lo, hi = float(argv[5]) * 1e6, float(argv[6]) * 1e6
    largest = len(argv) == 8
    entries = []
    for s in suites:
        with open(f"testdata/shapes/{s}.json") as f:
            entries += json.load(f)["kernels"]
    for k in kernels:
        out = subprocess.run([rkc, "print", "--json", f"testdata/kernels/{k}.rk"],
                             capture_output=True, text=True, check=True).stdout
        params = json.loads(out)["params"]

        def moved(M, N):
            count = {"[M,N]": M * N, "[M]": M, "[N]": N}
            return sum(count.get(p["shape"], 0) * SIZE[dtype if p["type"] == "T" else p["type"]]
                       for p in params if p["kind"] in ("in", "out"))

        shapes = set()
        for e in entries:
            if e["kernel"] != k:
                continue
            for sh in e["shapes"]:
                M = 1
                for d in sh[:-1]:
                    M *= d
                shapes.add((moved(M, sh[-1]), M, sh[-1]))
        big = sorted(s for s in shapes if s[0] >= lo)
        fit = [s for s in big if not hi or s[0] <= hi]
        if largest:
            fit = [fit[-1]] if fit else [big[0]] if big else [(moved(8192, 8192), 8192, 8192)]
        for b, M, N in fit:
            print(k, "%dx%d" % (M, N), "%.0f" % (b / 1e6))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
