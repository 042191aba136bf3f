#!/bin/bash
# old PTX against the final build (16-bit column passes at misaligned rows in whole trips, loads element by element from a vector address), and memcheck
set -u
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/rkc0.xz > /tmp/rkc0 && chmod +x /tmp/rkc0
R=/tmp/rkc0
i=0
while read k s d; do
 i=$((i+1))
 for v in orig new; do
  r=$(timeout 60 $R run $k --shape $s --dtype $d --ptx .carry/ptx3/p$i.$v.ptx --manifest .carry/ptx3/p$i.$v.json --check --time --copy-gbps 4274 --inputs .carry/hd/inputs.json 2>&1 | tee -a $OUT/runs.log | grep '^RESULT')
  echo "$i $k $s $d $v $(echo "$r" | grep -o 'status=[a-z]*\|us=[0-9.]*\|regs=[0-9]*\|local=[0-9]*' | tr '\n' ' ')"
 done
done < .carry/ptx3/points.txt > $OUT/ab.txt
python3 - $OUT/ab.txt <<'PY'
import sys,math,collections
rows=collections.defaultdict(dict)
for l in open(sys.argv[1]):
    f=l.split()
    if len(f)<6: continue
    i,k,s,d,v=f[:5]; kv=dict(x.split('=') for x in f[5:] if '=' in x)
    rows[(i,k.split('/')[-1][:-3],s,d)][v]=kv
g=collections.defaultdict(list)
for key,r in rows.items():
    o=r.get('orig',{}); line=' '.join(key[1:])
    for v in ("new",):
        x=r.get(v,{})
        if 'us' in o and 'us' in x:
            q=float(x['us'])/float(o['us']); g[v].append(q); line+=' %s %s/%s %.3f %s'%(v,x['us'],o['us'],q,x.get('status'))
    print(line)
for v,q in g.items(): print(v,'geomean %.3f n=%d min %.3f max %.3f'%(math.exp(sum(map(math.log,q))/len(q)),len(q),min(q),max(q)))
PY
for p in "bench/heldout/wb_grad.rk 9x4097 bf16" "tests/codegen/colpass_i8.rk 7x1003 bf16" "bench/heldout/bias_gelu_back.rk 5x3001 fp16" "tests/codegen/colpass_whole.rk 3x50257 bf16"; do
	set -- $p
	r=$(timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $R run $1 --shape $2 --dtype $3 --ptx .carry/ptx3/m.$(basename $1 .rk).ptx --manifest .carry/ptx3/m.$(basename $1 .rk).json --check --inputs .carry/hd/inputs.json 2>&1)
	echo "rc=$? $p: $(printf '%s\n' "$r" | grep 'ERROR SUMMARY' | head -1) $(printf '%s\n' "$r" | grep -o 'status=[a-z]*')"
done | tee $OUT/memcheck.txt
