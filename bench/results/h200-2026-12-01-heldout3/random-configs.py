"""Random forced configs at small odd shapes: those rkc explain accepts, one emulator point a line
(tests/codegen/emulate.c format); refusals must exit 1 with an error, never crash.
usage (from the repository root): random-configs.py SEED K1.rk,K2.rk,... COUNT > points"""
import random, subprocess, sys, json
random.seed(int(sys.argv[1]))
kernels = sys.argv[2].split(",")
n_want = int(sys.argv[3])
KN = "persistent,r_block,m_block,num_warps,vec,split,evict,min_ctas,smem,cluster,coop,grid,dynamic,ahead,stash,steps,colpass".split(",")
crash = refused = 0
out = []
tries = 0
while len(out) < n_want and tries < n_want * 40:
    tries += 1
    k = random.choice(kernels)
    M = random.choice([1, 2, 3, 5, 7, 9, 33])
    N = random.choice([1, 3, 7, 8, 64, 100, 257, 512, 1000, 2049, 4097])
    dt = random.choice(["bf16", "fp16", "fp32"])
    c = dict(persistent=random.choice([0, 1]), r_block=random.choice([1, 8, 32, 64, 128, 256, 512, 1024, 2048, 4096]),
             m_block=random.choice([1, 1, 2, 4, 8]), num_warps=random.choice([1, 2, 4, 8]), vec=random.choice([1, 2, 4, 8]),
             split=random.choice([1, 1, 1, 2, 4]), evict=random.choice([0, 1]), min_ctas=random.choice([1, 1, 2]),
             smem=random.choice([0, 0, 1, 2]), cluster=random.choice([1, 1, 1, 2, 4]), coop=random.choice([0, 0, 1]),
             grid=random.choice([0, 0, 2, 4, 6]), dynamic=random.choice([0, 0, 1]), ahead=random.choice([0, 1]),
             stash=random.choice([0, 1]), steps=random.choice([0, 1]), colpass=random.choice([0, 1]))
    cfg = ",".join("%s=%d" % (n, c[n]) for n in KN)
    r = subprocess.run(["./build-rel/rkc", "explain", k, "--shape", "%dx%d" % (M, N), "--dtype", dt, "--config", cfg],
                       capture_output=True, text=True)
    if r.returncode not in (0, 1):
        crash += 1
        print("CRASH rc=%d" % r.returncode, k, M, N, dt, cfg, r.stderr[-300:], file=sys.stderr)
        continue
    if r.returncode == 1:
        refused += 1
        if "error" not in r.stderr:
            print("UNCLEAR", k, M, N, dt, cfg, r.stderr[-200:], file=sys.stderr)
        continue
    out.append("%s %dx%d %s %s" % (k, M, N, dt, cfg))
print("\n".join(out))
print("# tries %d feasible %d refused %d crash %d" % (tries, len(out), refused, crash), file=sys.stderr)
