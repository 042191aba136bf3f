import json, subprocess, sys
R = "./build-rel/rkc"
pts = [l.split() for l in open(sys.argv[1]) if l.strip()]
VAR = [(2, 32, 132, 1), (2, 16, 264, 2), (4, 32, 120, 1), (4, 16, 248, 2), (8, 16, 240, 2)]
for k, s, d in pts:
    j = json.loads(subprocess.run([R, "explain", k, "--shape", s, "--dtype", d, "--json"], capture_output=True, text=True).stdout)
    vec = j["vec"]
    print(f"{k} --shape {s} --dtype {d}")
    got = 0
    for c, w, g, mc in VAR:
        best = None
        for rb in (4096, 8192, 16384, 32768):
            cfg = f"persistent=0,r_block={rb},m_block=1,num_warps={w},vec={vec},cluster={c},grid={g},min_ctas={mc},colpass=0"
            r = subprocess.run([R, "explain", k, "--shape", s, "--dtype", d, "--config", cfg, "--json"], capture_output=True, text=True)
            if r.returncode: continue
            x = json.loads(r.stdout)
            if x["spills"]: continue
            if best is None or x["modelled_us"] < best[0]: best = (x["modelled_us"], cfg)
        if best:
            print(f"{k} --shape {s} --dtype {d} --config {best[1]}")
