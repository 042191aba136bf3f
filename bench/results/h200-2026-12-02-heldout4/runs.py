"""For each tpr point: the [M,N] outputs' narrowest element size and the store run a row an access
(threads a row x vec x size) at the pick and at twice the threads."""
import re, sys
SZ = {"bf16": 2, "f16": 2, "fp16": 2, "f32": 4, "fp32": 4, "i8": 1, "f8e4m3": 1, "f8e5m2": 1, "i32": 4, "i64": 8, "bool": 1}
def osize(path, dt):
    s = None
    for l in open(path):
        m = re.match(r"out\s+\w+:\s*(\w+)\[M,N\]", l)
        if m:
            t = m.group(1)
            z = SZ[dt] if t == "T" else SZ[t]
            s = z if s is None else min(s, z)
    return s
for l in open(sys.argv[1]):
    f, dt, shape, _, cfg = l.split()
    c = dict(kv.split("=") for kv in cfg.split(","))
    vec, m, w = int(c["vec"]), int(c["m_block"]), int(c["num_warps"])
    tpr_new = w * 32 // m
    o = osize(f, dt)
    run = (tpr_new // 2) * vec * o if o else 0
    print(f"{f.split('/')[-1][:-3]} {dt} {shape} out={o} vec={vec} tpr={tpr_new//2}->{tpr_new} run={run}->{2*run}")
