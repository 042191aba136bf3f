#!/usr/bin/env python3
"""One line a profiled launch of `ncu --csv --page details` output: its ID, kernel, grid, block
and the metrics asked for, in the order ncu profiled them. Lines that are not ncu's CSV (the
profiled program's own output, ncu's notes) are skipped.

usage: bench/ncu_table.py NCU.csv [METRIC,METRIC,...]
    default metrics: Duration, DRAM Throughput, Registers Per Thread, Achieved Occupancy,
    Theoretical Occupancy, Waves Per SM (each as ncu names it in its details page)
"""
import collections
import csv
import sys

DEFAULT = ["Duration", "DRAM Throughput", "Registers Per Thread", "Achieved Occupancy",
           "Theoretical Occupancy", "Waves Per SM"]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    want = sys.argv[2].split(",") if len(sys.argv) == 3 else DEFAULT
    with open(sys.argv[1], newline="") as f:
        rows = list(csv.reader(line for line in f if line.startswith('"')))
    if not rows:
        sys.exit(f"ncu_table: no ncu CSV in {sys.argv[1]}")
    ix = {h: i for i, h in enumerate(rows[0])}
    launches = collections.OrderedDict()
    for r in rows[1:]:
        e = launches.setdefault(r[ix["ID"]], {"name": r[ix["Kernel Name"]],
                                              "grid": r[ix["Grid Size"]],
                                              "block": r[ix["Block Size"]]})
        e[r[ix["Metric Name"]]] = r[ix["Metric Value"]]
    for key, e in launches.items():
        print(key, e["name"][:40], e["grid"], e["block"],
              " ".join(f"{w}={e.get(w, '?')}" for w in want))


if __name__ == "__main__":
    main()
