# Fresh points of the bands' class, drawn at random: every kernel of testdata/kernels and
# bench/heldout, bf16, fp16 and fp32, 2-131 rows of 200000-4200000 columns (at most MAXB bytes an array,
# an environment variable: 4e8 unless set; call 4 drew with MAXB=6e8),
# kept where the branch's pick (NEW) differs from main's (OLD); a line for bench/ab.sh each: main's
# pick forced (old) against the branch's (new). usage, from the repository root:
#   python3 drawpts.py OLD_RKC NEW_RKC SEED COUNT [M_LO M_HI N_LO N_HI] > points.txt
# With the four bounds, M and N are drawn log-uniform between them instead
# (h200-2026-12-07-wide-bands: 132 8192 30000 2000000, the bands offered at any rows).
import glob, json, os, random, subprocess, sys
old_rkc, new_rkc, seed, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
bounds = [int(x) for x in sys.argv[5:9]]
keys = ("persistent r_block m_block num_warps vec split evict min_ctas smem cluster grid dynamic "
        "ahead coop stash steps colpass").split()
kernels = sorted(glob.glob("testdata/kernels/*.rk") + glob.glob("bench/heldout/*.rk"))
rng = random.Random(seed)
def explain(rkc, k, dt, s):
    r = subprocess.run([rkc, "explain", k, "--dtype", dt, "--shape", s, "--json"],
                       capture_output=True, text=True)
    return json.loads(r.stdout) if r.returncode == 0 else None
out, tries = 0, 0
while out < count and tries < 4000:
    tries += 1
    k, dt = rng.choice(kernels), rng.choice(["bf16", "fp16", "fp32"])
    if bounds:
        m0, m1, n0, n1 = bounds
        M, N = int(m0 * (m1 / m0) ** rng.random()), int(n0 * (n1 / n0) ** rng.random())
    else:
        M, N = rng.randint(2, 131), int(200000 * (21 ** rng.random()))
    if M * N * (4 if dt == "fp32" else 2) > float(os.environ.get("MAXB", "4e8")):
        continue
    s = f"{M}x{N}"
    a, b = explain(old_rkc, k, dt, s), explain(new_rkc, k, dt, s)
    if not a or not b or a["config_short"] == b["config_short"]:
        continue
    print(f"# {a['config_short']} -> {b['config_short']}")
    print(k, dt, s, ",".join(f"{x}={int(a[x])}" for x in keys), "pick")
    out += 1
