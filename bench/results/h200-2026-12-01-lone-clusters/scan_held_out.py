import json,subprocess,itertools,concurrent.futures as cf,sys
# usage, from the repository root: python3 bench/results/h200-2026-12-01-lone-clusters/scan_held_out.py RKC
rkc=sys.argv[1]
ks=['softmax','scaled_masked_softmax','fused_linear_jsd','layer_norm','cross_entropy_backward','dynamic_quant','rms_norm','welford','gated_rmsnorm','jsd','kl_div','cross_entropy','grpo']
def one(a):
    k,dt,M,N=a
    r=subprocess.run([rkc,'explain','testdata/kernels/%s.rk'%k,'--shape','%dx%d'%(M,N),'--dtype',dt,'--json'],capture_output=True,text=True)
    if r.returncode: return None
    d=json.loads(r.stdout); return (k,dt,M,N,d['config_short'])
jobs=list(itertools.product(ks,['f16','f32'],[300,777],[300007,212345,524288]))
with cf.ThreadPoolExecutor(2) as ex:
    for r in ex.map(one,jobs):
        if r: print(*r)
