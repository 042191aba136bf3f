# The picks of a grid of kernels and shapes (sm_90, bf16 and fp32), one line each:
# kernel dtype M N config... ctas_per_sm cluster smem persistent modelled_us.
# Run from the repository root: python3 bench/results/h200-2026-12-01-lone-clusters/scan.py RKC
import concurrent.futures as cf
import itertools
import json
import os
import subprocess
import sys

rkc = sys.argv[1] if len(sys.argv) > 1 else "./build/rkc"
ks = sorted(f[:-3] for f in os.listdir("testdata/kernels") if f.endswith(".rk"))
Ms = [256, 512, 1024, 2048, 4096, 8192]
Ns = [65536, 100003, 131072, 163840, 201088, 256000, 262144, 500000]


def one(a):
    k, dt, M, N = a
    if M * N * 4 * 4 > 2**34:
        return None
    r = subprocess.run([rkc, "explain", "testdata/kernels/%s.rk" % k, "--shape", "%dx%d" % (M, N),
                        "--dtype", dt, "--json"], capture_output=True, text=True)
    if r.returncode:
        return None
    d = json.loads(r.stdout)
    c = d["cost"]
    return (k, dt, M, N, d["config_short"], c["ctas_per_sm"], d["cluster"], d["smem"],
            d["persistent"], d["modelled_us"])


with cf.ThreadPoolExecutor(2) as ex:
    for r in ex.map(one, itertools.product(ks, ["bf16", "f32"], Ms, Ns)):
        if r:
            print(*r)
