# Run from the repository root with a guard build at build-rel/rkc: every explain whose reasons name the spill guard.
import json, subprocess, sys, glob, os
from concurrent.futures import ThreadPoolExecutor
R='build-rel/rkc'
shapes=['2048x8192','32768x512','100x50257','65536x128','8192x2048','512x32768','131072x256','1000x5003']
jobs=[]
for f in sorted(glob.glob('bench/heldout/*.rk')):
    for s in shapes:
        for dt in ['bf16','fp32']:
            jobs.append((f,s,dt))
for suite in ['few_rows','tiny_rows','long_rows','training','narrow_bwd','wide_bwd','few_rows_bwd']:
    d=json.load(open(f'testdata/shapes/{suite}.json'))
    for k in d['kernels']:
        for sh in k['shapes']:
            m=sh[0]*sh[1] if len(sh)==3 else sh[0]; n=sh[-1]
            for dt in d.get('dtypes',['bf16','fp32']):
                jobs.append((f"testdata/kernels/{k['kernel']}.rk",f"{m}x{n}",dt))
def one(j):
    f,s,dt=j
    r=subprocess.run([R,'explain',f,'--shape',s,'--dtype',dt,'--json'],capture_output=True,text=True)
    try: e=json.loads(r.stdout)
    except Exception: return None
    g=[x for x in e['reasons'] if 'the spill guard' in x]
    return (os.path.basename(f)[:-3],dt,s,e['config_short'],g[0] if g else None)
with ThreadPoolExecutor(2) as ex:
    res=[x for x in ex.map(one,jobs) if x]
print(len(jobs),len(res))
for x in res:
    if x[4]: print(*x)
