import gzip,re,math,sys
def parse(f):
    out=[];cur=None
    for l in gzip.open(f,'rt'):
        if l.startswith('== '): cur=l[3:].strip(); continue
        if l.startswith('RESULT'):
            w=cur.split(); k=w[0].split('/')[-1][:-3]; s=w[2]; d=w[4]
            c=re.search(r'--config (\S+)',cur); c=c.group(1) if c else 'pick'
            m=re.search(r' us=([\d.]+)',l)
            out.append((k,d,s,c,float(m.group(1)) if m and 'status=ok' in l else None))
    return out
D = sys.argv[1] if len(sys.argv) > 1 else 'bench/results/h200-2026-12-04-heldout7/'
c4=parse(D+'call4-runs.log.gz'); c5=parse(D+'call5-runs.log.gz')
pts={}
for k,d,s,c,us in c4: pts.setdefault((k,d,s),{})[c]=us
def short(c):
    g=dict(x.split('=') for x in c.split(','))
    return f"c{g['cluster']} w{g['num_warps']} g{g['grid']}"
KEYS=['c2 w32 g132','c2 w16 g264','c4 w32 g120','c4 w16 g248','c8 w16 g240']
print("| point | old pick µs | "+" | ".join(KEYS)+" | best/old | call 5's pick µs (/old) |")
print("|---|---|"+"---|"*len(KEYS)+"---|---|")
lr=[];lb=[]
new={(k,d,s):us for k,d,s,c,us in c5}
for (k,d,s),v in pts.items():
    old=v['pick']; cols={short(c):us for c,us in v.items() if c!='pick'}
    row=['-' if key not in cols else ('refused' if cols[key] is None else f"{cols[key]:.1f}") for key in KEYS]
    best=min(u for u in cols.values() if u); lb.append(math.log(best/old))
    n=new.get((k,d,s)); ns=f"{n:.1f} ({n/old:.3f})" if n else "-"
    if n: lr.append(math.log(n/old))
    print(f"| {k} {d} {s} | {old:.1f} | "+" | ".join(row)+f" | {best/old:.3f} | {ns} |")
print(f"\nbest/old geomean {math.exp(sum(lb)/len(lb)):.3f} over {len(lb)}; call 5 new/old {math.exp(sum(lr)/len(lr)):.3f} over {len(lr)}, faster by >2% {sum(1 for x in lr if x<math.log(0.98))}, slower by >2% {sum(1 for x in lr if x>math.log(1.02))}")
