#!/usr/bin/env python3
# The cost model against call 1's 44 timed pairs (the column pass, the OLD config, against the
# streamed rows set aside, NEW): for each rkc build given, each config's modelled time (rkc
# explain --config) and whether the model orders the pair as it ran; the count per build last.
# usage (from the repository root): python3 bench/results/h100-2026-12-05-colpass-turns/model-pairs.py RKC...
import json, os, subprocess, sys
D = os.path.dirname(os.path.abspath(__file__))
rows=[l.split() for l in open(D + '/call1-ab-table.txt').read().splitlines()[1:] if '{' in l]
pts=[l.split() for l in open(D + '/call1-points.txt') if l.strip()]
def mod(rkc,k,d,s,cfg):
    c=','.join('%s=%s'%(a,int(b)) for a,b in cfg.items())
    r=subprocess.run([rkc,'explain',k,'--dtype',d,'--shape',s,'--config',c,'--json'],capture_output=True,text=True)
    return json.loads(r.stdout)['modelled_us']
agree={}
for p in pts:
    k,d,s=p[0],p[1],p[2]; name=k.split('/')[-1][:-3]
    for r in rows:
        if r[0]==name and r[1]==('f32' if d=='fp32' else d) and r[2]==s:
            a,b=' '.join(r[6:]).split(' -> '); ca=json.loads(a); cb=json.loads(b)
            old,new=float(r[3]),float(r[4])
            out=[]
            for rkc in sys.argv[1:]:
                ma,mb=mod(rkc,k,d,s,ca),mod(rkc,k,d,s,cb)
                ok=(ma<mb)==(old<new)
                agree[rkc]=agree.get(rkc,0)+ok
                out.append('%7.1f %7.1f %s'%(ma,mb,'ok' if ok else 'XX'))
            print('%-16s %-4s %-11s vec%d %7.1f %7.1f %5.3f | '%(name,d,s,ca['vec'],old,new,new/old)+' | '.join(out))
print(agree, len(rows))
