import json, subprocess, glob, random
KN = "persistent r_block m_block num_warps vec split evict min_ctas smem cluster coop grid dynamic ahead stash steps colpass".split()
def pick(rkc, k, s, dt):
    r = subprocess.run([rkc,'explain',k,'--shape',s,'--dtype',dt,'--json'],capture_output=True,text=True)
    return json.loads(r.stdout) if r.returncode == 0 else None
ks = sorted(glob.glob('bench/heldout/*.rk')) + sorted(glob.glob('testdata/kernels/*.rk'))
out = []
for k in ks:
    for s in ['262144x128', '200000x96', '1048576x16', '393216x40', '150000x100']:
        for dt in ['bf16', 'fp32']:
            a, b = pick('/tmp/rkc.head', k, s, dt), pick('build-rel/rkc', k, s, dt)
            if a and b and a['config_short'] != b['config_short']:
                out.append(f"{k} {dt} {s} " + ",".join(f"{x}={int(a[x])}" for x in KN) + " pick")
random.seed(3); random.shuffle(out)
print("\n".join(out))
