import json,subprocess,sys,glob,os
rkc="./build-rel/rkc"
kernels=[os.path.basename(p)[:-3] for p in sorted(glob.glob("testdata/kernels/*.rk"))]
extra=[p for p in sorted(glob.glob("bench/heldout/*.rk"))]
Ms=[65536,100003,262144,1048576]; Ns=[16,17,32,40,48,64,77,96,128,129,200,256]
rows=[]
for kp in ["testdata/kernels/%s.rk"%k for k in kernels]+extra:
  for d in ["bf16","f32"]:
    for M in Ms:
      for N in Ns:
        r=subprocess.run([rkc,"explain",kp,"--shape",f"{M}x{N}","--dtype",d,"--json"],capture_output=True,text=True)
        if r.returncode: continue
        j=json.loads(r.stdout); c=j
        if c["num_warps"]==1 and c.get("grid",0)==0:
          rows.append((os.path.basename(kp),d,M,N,c["m_block"],c["persistent"]))
for r in rows: print(*r)
print(len(rows))
