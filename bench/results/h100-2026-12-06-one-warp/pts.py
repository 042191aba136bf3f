import json,subprocess,random,os
rkc="./build-rel/rkc"
rows=[l.split() for l in open("/tmp/w1.out") if len(l.split())==6]
random.Random(89).shuffle(rows)
def path(k): 
  p="testdata/kernels/"+k
  return p if os.path.exists(p) else "bench/heldout/"+k
def ex(kp,d,shape,cfg=None):
  a=[rkc,"explain",kp,"--shape",shape,"--dtype",d,"--json"]+(["--config",cfg] if cfg else [])
  r=subprocess.run(a,capture_output=True,text=True)
  return json.loads(r.stdout) if r.returncode==0 else None
A=open("/tmp/w1-a.txt","w"); B=open("/tmp/w1-b.txt","w"); n=0; seen={}
for k,d,M,N,m,p in rows:
  key=(k,d)
  if seen.get(key,0)>=2: continue
  kp=path(k); shape=f"{M}x{N}"; m=int(m)
  j=ex(kp,d,shape)
  a=ex(kp,d,shape,f"m_block={m},num_warps=2"); b=ex(kp,d,shape,f"m_block={2*m},num_warps=2")
  if not a or not b: continue
  seen[key]=seen.get(key,0)+1; n+=1
  print(k,d,shape,j["config_short"],j["modelled_us"],"|",a["config_short"],a["modelled_us"],"|",b["config_short"],b["modelled_us"])
  A.write(f"{kp} {d} {shape} pick m_block={m},num_warps=2\n")
  B.write(f"{kp} {d} {shape} pick m_block={2*m},num_warps=2\n")
  if n>=90: break
