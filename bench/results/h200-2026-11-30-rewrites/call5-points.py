import json, subprocess, sys
KN="persistent r_block m_block num_warps vec split evict min_ctas smem cluster coop grid dynamic ahead stash steps".split()
def cfg(c): return ",".join(f"{k}={int(c[k])}" for k in KN)
out=[]
for k in "rms_norm layer_norm fused_add_rmsnorm fused_add_layernorm gated_rmsnorm softmax welford dynamic_quant".split():
    for d in ["bf16","f32"]:
        for s in ["8192x768","16384x1024","16384x896","4096x2048","32768x1024","65536x512"]:
            j=json.loads(subprocess.check_output(["./build/rkc","explain",f"testdata/kernels/{k}.rk","--shape",s,"--dtype",d,"--json"]))
            if not j["persistent"] or j["grid"] or j["cluster"]>1 or j["m_block"]==1: continue
            tpr=j["num_warps"]*32//j["m_block"]
            if tpr<32: continue
            n=dict(j); n["m_block"]=1; n["num_warps"]=tpr//32
            n["min_ctas"]=min(32, j["min_ctas"]*j["num_warps"]//n["num_warps"])
            out.append(f"{k} {d} {s} {cfg(j)} {cfg(n)}")
print("\n".join(out))
