"""Tiny-row picks on a persistent grid: the pick against the best grid=0 candidate explain names."""
import json, re, subprocess, glob, os
def parse(s):
    t = s.split(); c = {}
    if t[0] == 'P': c['persistent']=1; c['r_block']=int(t[1][1:]); t=t[2:]
    else: c['persistent']=0; c['r_block']=int(t[0][1:]); t=t[1:]
    for x in t:
        if x[0]=='m': c['m_block']=int(x[1:])
        elif x[0]=='w': c['num_warps']=int(x[1:])
        elif x[0]=='v': c['vec']=int(x[1:])
        elif x[0]=='k': c['min_ctas']=int(x[1:])
        elif x=='e': c['evict']=1
        elif x=='t': c['steps']=1
        else: return None
    c.setdefault('split',1)
    return ','.join(f'{k}={v}' for k,v in c.items())
ks = sorted(glob.glob('bench/heldout/*.rk')) + sorted(glob.glob('testdata/kernels/*.rk'))
for k in ks:
    for s in ['262144x64', '1048576x32', '524288x48', '131072x128']:
        for dt in ['bf16', 'fp16', 'fp32']:
            r = subprocess.run(['build-rel/rkc','explain',k,'--shape',s,'--dtype',dt,'--json'],capture_output=True,text=True)
            if r.returncode: continue
            j = json.loads(r.stdout)
            if j['grid'] <= 0: continue
            g = [x for x in j['reasons'] if x.startswith('grid=')]
            m = re.search(r'best alternative (.*?): ', g[0]) if g else None
            if not m: continue
            cfg = parse(m.group(1))
            if cfg: print(k, dt, s, 'pick', cfg)
