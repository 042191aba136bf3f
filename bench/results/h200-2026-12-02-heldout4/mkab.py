"""Points for bench/ab.sh: each line "K.rk dtype MxN" of SHAPES where OLD_RKC and NEW_RKC pick
differently, as "K.rk dtype MxN OLD_CONFIG pick" (the old pick forced, the new build's own).
usage: mkab.py SHAPES OLD_RKC NEW_RKC > points.txt"""
import json, subprocess, sys
keys = "ahead cluster colpass coop dynamic evict grid m_block min_ctas num_warps persistent r_block smem split stash steps vec".split()
def ex(b, k, s, d):
    return json.loads(subprocess.check_output([b, "explain", k, "--shape", s, "--dtype", d, "--json"]))
for line in open(sys.argv[1]):
    k, d, s = line.split()
    o = ex(sys.argv[2], k, s, d); n = ex(sys.argv[3], k, s, d)
    if o["config_short"] == n["config_short"]:
        continue
    cfg = ",".join(f"{x}={int(o[x])}" for x in keys)
    print(f"{k} {d} {s} {cfg} pick")
