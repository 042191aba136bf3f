import re,sys,collections
lo,hi=int(sys.argv[2],16),int(sys.argv[3],16)
c=collections.Counter()
for l in open(sys.argv[1]):
    m=re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(.*?);',l)
    if not m: continue
    a=int(m.group(1),16)
    if lo<=a<=hi:
        ins=m.group(2).strip()
        ins=re.sub(r'^@!?U?P\w+\s+','',ins)
        c[ins.split()[0]]+=1
print(sum(c.values())); print(sorted(c.items(),key=lambda x:-x[1]))
