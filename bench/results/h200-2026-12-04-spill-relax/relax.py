# Run from the repository root: python3 relax.py POINTS OUTDIR (POINTS: "kernel dtype MxN" lines).
# For each spilling pick: the policy's config with min_ctas lowered (and a persistent grid scaled
# to the CTAs an SM it then plans) until ptxas assembles it without spill stores.
import json, subprocess, sys, os
R='build-rel/rkc'
out_dir=sys.argv[2]; os.makedirs(out_dir, exist_ok=True)
pts=[l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith('#')]
def comp(path, dt, sh, cfg, o):
    a=[R,'compile',path,'--dtype',dt,'--shape',sh,'--ptxas','-o',o+'.cubin']
    if cfg: a+=['--config',cfg]
    r=subprocess.run(a,capture_output=True,text=True)
    if r.returncode: return None
    import re
    m=re.search(r'(\d+) registers, (\d+) bytes spill stores',r.stdout)
    return int(m.group(1)), int(m.group(2))
for k,dt,sh in pts:
    path=k if k.endswith('.rk') else f'testdata/kernels/{k}.rk'
    name=f"{os.path.basename(path)[:-3]}-{dt}-{sh}"
    d=json.loads(subprocess.run([R,'explain',path,'--dtype',dt,'--shape',sh,'--json'],capture_output=True,text=True).stdout)
    mc=d['min_ctas']; g=d['grid']; per=g//132 if g else 0
    base=comp(path,dt,sh,'',f'/tmp/relax-x')
    found=None
    for m in range(mc-1,0,-1):
        cfg=f'min_ctas={m}'
        if g and per>1 and g%132==0: cfg+=f',grid={132*min(per,m)}'
        r=comp(path,dt,sh,cfg,'/tmp/relax-x')
        if r and r[1]==0:
            found=(cfg,r); break
    print(name, d['config_short'], 'base', base, 'relaxed', found, flush=True)
