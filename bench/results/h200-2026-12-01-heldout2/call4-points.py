import json, subprocess, sys
KN = "persistent,r_block,m_block,num_warps,vec,split,evict,min_ctas,smem,cluster,coop,grid,dynamic,ahead,stash,steps".split(",")
pts = []
ks = sys.argv[1].split(",")
shapes = sys.argv[2].split(",")
dts = sys.argv[3].split(",")
for k in ks:
    for s in shapes:
        for dt in dts:
            r = subprocess.run(["./build/rkc", "explain", k, "--shape", s, "--dtype", dt, "--json"], capture_output=True, text=True)
            if r.returncode: continue
            d = json.loads(r.stdout)
            if not d["persistent"]: continue
            M, N = map(int, s.split("x"))
            tpr = 32 * d["num_warps"] // d["m_block"]
            per = -(-N // (tpr * d["vec"]))  # vectors a thread a row
            if per < 2 or d["m_block"] < 2 or d["cluster"] > 1: continue
            new = dict(d); new["m_block"] = d["m_block"] // 2
            cfg = lambda x: ",".join("%s=%d" % (n, int(x[n])) for n in KN)
            chk = subprocess.run(["./build/rkc", "explain", k, "--shape", s, "--dtype", dt, "--config", cfg(new)], capture_output=True, text=True)
            if chk.returncode: print("# refused", k, s, dt, chk.stderr.strip()[:120]); continue
            print(k, dt, s, cfg(d), cfg(new), "# tpr %d -> %d, %d vectors a thread" % (tpr, tpr * 2, per))
