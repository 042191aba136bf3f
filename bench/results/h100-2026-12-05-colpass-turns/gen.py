#!/usr/bin/env python3
"""Points where drop_streamed_colsums set a candidate aside: 'K dtype MxN pick CONFIG'."""
import subprocess, sys, re, os
sys.path.insert(0, "bench")
from replay import parse_short
rkc = sys.argv[1]
kernels = sys.argv[2].split(",")
Ms = [int(x) for x in sys.argv[3].split(",")]
Ns = [int(x) for x in sys.argv[4].split(",")]
maxmb = float(sys.argv[5]) if len(sys.argv) > 5 else 1200
for k in kernels:
    for dt in ("bf16", "fp32"):
        for M in Ms:
            for N in Ns:
                mb = M * N * (2 if dt == "bf16" else 4) * 3 / 1e6
                if mb > maxmb:
                    continue
                out = subprocess.run([rkc, "tune", k, "--dtype", dt, "--shape", "%dx%d" % (M, N), "--list"],
                                     capture_output=True, text=True).stdout
                seed = aside = None
                for line in out.splitlines():
                    m = re.match(r"^\s*(\S+)\s+(.+?)\s+([\d.]+)\s+<- (.*)$", line)
                    if not m:
                        continue
                    if m.group(4).startswith("seed"):
                        seed = (m.group(2), float(m.group(3)))
                    if "drop_streamed_colsums" in m.group(4):
                        aside = (m.group(2), float(m.group(3)))
                if not seed or not aside:
                    continue
                c = parse_short(aside[0])
                cfg = ",".join("%s=%d" % (kk, v) for kk, v in sorted(c.items()))
                print("%s %s %dx%d pick %s" % (k, dt, M, N, cfg))
                print("# seed %s %.1f | aside %s %.1f" % (seed[0], seed[1], aside[0], aside[1]), file=sys.stderr)
