"""Refit the sm_90 model constants on the re-timed suites: for each DRAM latency and CTA overhead
of the grid (argv 1, 2), every non-jsd point's modelled time at its measured config with
launch_us 0 (launch_us adds); written to argv 3 as JSON. Run from the repository root."""
import csv, json, os, subprocess, sys, statistics, concurrent.futures as cf, itertools
R='bench/results/h100-2026-11-24-flush/'
B=os.environ.get('RKC_EXP', 'rkc')  # a build with kernels/exp-target-env.diff
rows=[]
for f in ['points-bf16.csv','points-f32.csv']:
    rows += [r for r in csv.DictReader(open(R+f)) if 'jsd' not in r['kernel']]
def cfgs(r):
    c=json.loads(r['config'])
    return ",".join(f"{k}={int(v) if isinstance(v,bool) else v}" for k,v in c.items())
def one(args):
    r,lat,cta=args
    env=dict(os.environ, RKC_EXP_LAT=str(lat), RKC_EXP_CTA=str(cta), RKC_EXP_LAUNCH='0')
    dt='f32' if r['dtype'] in ('f32','fp32') else r['dtype']
    p=subprocess.run([B,'explain',f"testdata/kernels/{r['kernel']}.rk",'--shape',f"{r['M']}x{r['N']}",'--dtype',dt,'--config',cfgs(r),'--json'],capture_output=True,text=True,env=env)
    return json.loads(p.stdout)['cost']['us'] if p.returncode==0 else None
out={}
grid=[(lat,cta) for lat in map(int,sys.argv[1].split(',')) for cta in map(int,sys.argv[2].split(','))]
with cf.ThreadPoolExecutor(4) as ex:
    for lat,cta in grid:
        out[f"{lat},{cta}"]=list(ex.map(one,[(r,lat,cta) for r in rows]))
        print(lat,cta,'done',flush=True)
json.dump({'rows':[(r['suite'],r['kernel'],r['dtype'],r['M'],r['N'],float(r['us'])) for r in rows],'model':out},open(sys.argv[3],'w'))
