#!/usr/bin/env python3
"""Per tune log, the measured regret of the model's first candidate under each (warp_op_ns, issue_ns)
pair, with math-term.diff applied and rkc built with -DRKC_FIT (RKC: that binary; default
build-fit/rkc). usage: cmp.py W:I [W:I ...] RESULTS_DIR..."""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_math as F, subprocess, json
from concurrent.futures import ThreadPoolExecutor
dirs=[d for d in sys.argv[1:] if ':' not in d]  # the results directories
sets_args=[a for a in sys.argv[1:] if ':' in a]
logs=F.read_logs(dirs)
sets=[tuple(map(float,x.split(':'))) for x in sets_args]  # warp_op_ns:issue_ns
def run(j):
    (o,i),k,dt,M,N,c=j
    env=dict(os.environ,RKC_FIT_OPNS=str(o),RKC_FIT_ISSUE=str(i))
    r=subprocess.run([os.environ.get('RKC', 'build-fit/rkc'),'explain',f'testdata/kernels/{k}.rk','--shape',f'{M}x{N}','--dtype',dt,'--json','--config',F.long_config(c)],capture_output=True,text=True,env=env)
    return None if r.returncode else json.loads(r.stdout)['modelled_us']
jobs=[(s,l[1],l[2],l[3],l[4],c) for s in sets for l in logs for c,_ in l[5]]
with ThreadPoolExecutor(2) as ex: res=dict(zip(jobs, ex.map(run, jobs)))
import math
tot=[[] for _ in sets]
for path,k,dt,M,N,rows in logs:
    out=[]
    for si,s in enumerate(sets):
        pts=[(res[(s,k,dt,M,N,c)],us,c) for c,us in rows if res[(s,k,dt,M,N,c)] is not None]
        best=min(p[1] for p in pts); pick=min(pts)
        out.append((pick[1]/best, pick[2])); tot[si].append(pick[1]/best)
    if max(abs(out[0][0]-o[0]) for o in out)>0.01:
        print(f"{k:22s} {dt} {M}x{N:<7d} " + "  ".join(f"{r:.3f} {c:26s}" for r,c in out))
for si,s in enumerate(sets):
    print(s, round(math.exp(sum(map(math.log,tot[si]))/len(tot[si])),4), sum(r<=1.05 for r in tot[si]))
