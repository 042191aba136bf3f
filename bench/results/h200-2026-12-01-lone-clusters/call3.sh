#!/bin/bash
# call 3: every pick of a kernel-shape grid that keeps a row over a cluster with one CTA an SM (M 512 and 2048), against the re-read
gunzip -c .carry/rkc.gz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
while read k dt shapes; do
  S=""; for s in $shapes; do S="$S --shape $s"; done
  for v in pick reread; do
    C=""; [ $v = reread ] && C="--config smem=0,cluster=1"
    timeout 100 $R run testdata/kernels/$k.rk $S --dtype $dt $C --time --copy-gbps 4274 --json 2>>$OUT/err.txt | sed "s/^/$v /" >> $OUT/runs.txt
  done
done < .carry/pts3.txt
python3 - <<'P'
import json,os,collections
rows=collections.defaultdict(dict)
for l in open(os.environ['OUT']+'/runs.txt'):
    v,j=l.split(' ',1)
    try: d=json.loads(j)
    except: continue
    if 'us' not in d: continue
    rows[(d['kernel'],d['dtype'],d['M'],d['N'])][v]=d
import math
lg=[]
for k,r in sorted(rows.items()):
    if 'pick' in r and 'reread' in r and r['pick']['us']>0 and r['reread']['us']>0:
        x=r['reread']['us']/r['pick']['us']; lg.append(math.log(x))
        c=r['pick']['config']; 
        print("%-24s %-5s %6dx%-8d pick %9.1f reread %9.1f  %.3f  c%d w%d k%d"%(k[0],k[1],k[2],k[3],r['pick']['us'],r['reread']['us'],x,c['cluster'],c['num_warps'],c['min_ctas']))
print("reread/pick geomean %.3f over %d"%(math.exp(sum(lg)/len(lg)),len(lg)))
P
