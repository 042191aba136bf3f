"""Random configs near the policy's pick: each point takes a small odd shape, the pick there, and
1 to 3 knobs changed at random; those rkc explain accepts become emulator lines.
usage: mutate.py RKC SEED COUNT K1.rk,K2.rk,... > points"""
import json, random, subprocess, sys
rkc, seed, want, kernels = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split(",")
random.seed(seed)
KN = "persistent r_block m_block num_warps vec split evict min_ctas smem cluster coop grid dynamic ahead stash steps colpass".split()
CH = dict(persistent=[0, 1], r_block=[8, 32, 64, 128, 256, 512, 1024, 2048, 4096], m_block=[1, 2, 4, 8, 16],
          num_warps=[1, 2, 4, 8, 16], vec=[1, 2, 4, 8], split=[1, 2, 3, 4], evict=[0, 1], min_ctas=[1, 2, 4],
          smem=[0, 1, 2], cluster=[1, 2, 3, 4, 8], coop=[0, 1], grid=[0, 2, 3, 4, 6, 8], dynamic=[0, 1],
          ahead=[0, 1, 2, 3], stash=[0, 1], steps=[0, 1], colpass=[0, 1])
out, tries, crash = [], 0, 0
while len(out) < want and tries < want * 30:
    tries += 1
    k = random.choice(kernels)
    M = random.choice([1, 2, 3, 5, 7, 9, 17, 33, 65])
    N = random.choice([1, 3, 7, 16, 33, 64, 100, 257, 512, 1000, 2049, 4097, 5000, 9001])
    dt = random.choice(["bf16", "fp16", "fp32"])
    r = subprocess.run([rkc, "explain", k, "--shape", f"{M}x{N}", "--dtype", dt, "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        print("PICK FAILED", k, M, N, dt, r.stderr[-200:], file=sys.stderr)
        continue
    j = json.loads(r.stdout)
    c = {x: int(j[x]) for x in KN}
    for x in random.sample(KN, random.choice([1, 2, 3])):
        c[x] = random.choice(CH[x])
    cfg = ",".join(f"{x}={c[x]}" for x in KN)
    r = subprocess.run([rkc, "explain", k, "--shape", f"{M}x{N}", "--dtype", dt, "--config", cfg], capture_output=True, text=True)
    if r.returncode not in (0, 1):
        crash += 1
        print("CRASH", r.returncode, k, M, N, dt, cfg, file=sys.stderr)
        continue
    if r.returncode == 0 and (M * N) <= 400000:
        out.append(f"{k} {M}x{N} {dt} {cfg}")
print("\n".join(out))
print(f"# tries {tries} kept {len(out)} crash {crash}", file=sys.stderr)
