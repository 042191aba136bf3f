#!/bin/bash
# call 1: lone persistent rows (one CTA an SM of 8 warps): the pick against the same config at 16
# and 32 warps, forced; each checked against float64, timed with the L2 flushed
set -u
xz -dc .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
T0=$(date +%s)
while read -r k d s; do
  [ $(( $(date +%s) - T0 )) -gt 540 ] && { echo "SKIP $k $d $s"; continue; }
  for c in pick num_warps=16 num_warps=32; do
    a=""; [ $c != pick ] && a="--config $c"
    r=$(timeout 60 /tmp/rkc run $k --dtype $d --shape $s $a --time --check --copy-gbps 4274 2>&1 | grep '^RESULT' | tail -1)
    echo "$k $d $s $c :: ${r:-NONE}"
  done
done < .carry/s78/call1-points.txt > $OUT/lone.txt 2>&1
python3 - $OUT/lone.txt <<'PY'
import sys,re
rows={}
for l in open(sys.argv[1]):
    m=re.match(r'(\S+) (\S+) (\S+) (\S+) :: (.*)',l)
    if not m: continue
    k,d,s,c,r=m.groups()
    us=re.search(r' us=([\d.]+)',r); st=re.search(r'status=(\S+)',r); rg=re.search(r'regs=(\d+) local=(\d+)',r)
    rows.setdefault((k.split('/')[-1][:-3],d,s),{})[c]=(float(us.group(1)) if us else None, st.group(1) if st else '-', rg.groups() if rg else ('-','-'))
for key,v in rows.items():
    p=v.get('pick',(None,))[0]
    cells=[]
    for c in ['pick','num_warps=16','num_warps=32']:
        x=v.get(c)
        if not x or x[0] is None: cells.append('%-24s'%'-'); continue
        cells.append('%8.2f %s r%s l%s %5.3f'%(x[0],x[1][:2],x[2][0],x[2][1],x[0]/p if p else 0))
    print('%-22s %-4s %-11s'%key,' | '.join(cells))
PY
