import json, subprocess, sys
rkc = sys.argv[1]
KN = "persistent r_block m_block num_warps vec split evict min_ctas smem cluster coop grid dynamic ahead stash steps colpass".split()
pts = [("rms_colsum", s) for s in ["1024x131072", "2048x65536", "4096x32768", "8192x8192", "300x100003", "8x1000003", "64x262144"]]
pts += [("ln_bwd_recompute", s) for s in ["1024x131072", "2048x65536", "4096x16384", "8x1000003"]]
pts += [("moe_aux", s) for s in ["4096x4096", "16384x256", "65536x64", "8x1000003"]]
for k, s in pts:
    for dt in ["bf16", "fp32"]:
        path = f"bench/heldout/{k}.rk"
        j = json.loads(subprocess.run([rkc, "explain", path, "--shape", s, "--dtype", dt, "--json"], capture_output=True, text=True).stdout)
        c = {x: int(j[x]) for x in KN}
        tries = []
        a = dict(c, colpass=1)
        if a["persistent"]: a["smem"] = 0
        tries.append(a)
        b = dict(a, cluster=1, coop=0)
        tries.append(b)
        for t in tries:
            cfg = ",".join(f"{x}={t[x]}" for x in KN)
            r = subprocess.run([rkc, "explain", path, "--shape", s, "--dtype", dt, "--config", cfg], capture_output=True, text=True)
            if r.returncode == 0:
                print(f"{path} {dt} {s} pick {cfg}")
            else:
                print("#", k, dt, s, r.stderr.strip()[:200], file=sys.stderr)
