"""The PTX of `rkc compile` with N (and, with "ns", every row stride) a constant: each
`ld.param.u64` of that parameter becomes a `mov.u64` of the compiled N, so that ptxas folds the
column masks and the mean's divisor. Arguments stay as they were (the launch passes them anyway).
usage: python3 bake.py IN.ptx IN.json OUT.ptx n|ns"""
import json
import re
import sys

ptx, man, out, what = sys.argv[1:5]
m = json.load(open(man))
t = open(ptx).read()
e = m["entry"]
N = m["N"]
idx = {p["name"]: i for i, p in enumerate(m["params"])}
names = ["N"] + ([p["name"] for p in m["params"] if p["kind"] == "stride"] if what == "ns" else [])
n = 0
for nm in names:
    pat = r"ld\.param\.u64\s+(%rd\d+), \[" + re.escape(e) + "_param_" + str(idx[nm]) + r"\];"
    t, k = re.subn(pat, r"mov.u64 \1, " + str(N) + ";", t)
    n += k
open(out, "w").write(t)
print(out, n, file=sys.stderr)
