"""Emulator lines of the policy's pick for each kernel at small odd shapes in three dtypes.
usage: picks.py RKC K1 K2 ... > points   (K: a bench/heldout kernel's name)"""
import json, subprocess, sys
KN = "persistent r_block m_block num_warps vec split evict min_ctas smem cluster coop grid dynamic ahead stash steps colpass".split()
for k in sys.argv[2:]:
    for s in ["3x7", "5x1000", "9x4097", "33x77", "64x64", "2x20011", "130x256"]:
        for dt in ["bf16", "fp16", "fp32"]:
            r = subprocess.run([sys.argv[1], "explain", f"bench/heldout/{k}.rk", "--shape", s, "--dtype", dt, "--json"],
                               capture_output=True, text=True)
            if r.returncode:
                print("FAIL", k, s, dt, r.stderr, file=sys.stderr)
                continue
            j = json.loads(r.stdout)
            print(f"bench/heldout/{k}.rk {s} {dt} " + ",".join(f"{x}={int(j[x])}" for x in KN))
