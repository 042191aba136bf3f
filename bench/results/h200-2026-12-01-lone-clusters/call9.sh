#!/bin/bash
# call 9: short rows held in registers, several rows a CTA: the pick against the same warps at half
# the rows a CTA (twice the threads a row), 46 sm_90 golden points of 512-4096 columns
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
while read k dt s c; do
  [ $SECONDS -gt 220 ] && { echo "stopped at $k $dt $s: time" >> $OUT/err.txt; break; }
  for v in pick half; do
    C=""; [ $v = half ] && C="--config $c"
    timeout 20 $R run testdata/kernels/$k.rk --shape $s --dtype $dt $C --time --copy-gbps 4274 --json 2>>$OUT/err.txt | sed "s/^/$v /" >> $OUT/runs.txt
  done
done < .carry/pts9.txt
python3 - <<'P'
import json,os,math,collections
rows=collections.defaultdict(dict)
for l in open(os.environ['OUT']+'/runs.txt'):
    v,j=l.split(' ',1)
    try: d=json.loads(j)
    except: continue
    if d.get('us',0)>0: rows[(d['kernel'],d['dtype'],d['M'],d['N'])][v]=d
lg=[]
for k,r in rows.items():
    if 'pick' in r and 'half' in r:
        x=r['half']['us']/r['pick']['us']; lg.append(math.log(x))
        a=r['pick']['config']; b=r['half']['config']
        print("%-20s %-4s %5dx%-5d %7.2f %7.2f %.3f  m%d w%d k%d -> m%d w%d k%d"%(k[0][:20],k[1],k[2],k[3],r['pick']['us'],r['half']['us'],x,a['m_block'],a['num_warps'],a['min_ctas'],b['m_block'],b['num_warps'],b['min_ctas']))
print("half/pick geomean %.3f over %d, faster by 2%%: %d, slower by 2%%: %d"%(math.exp(sum(lg)/len(lg)),len(lg),sum(x<math.log(0.98) for x in lg),sum(x>math.log(1.02) for x in lg)))
P
