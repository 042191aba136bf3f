#!/usr/bin/env python3
"""The hand edit of call1.sh's dq1f: in PTX from `rkc compile --regions`, each stamp within SPAN
lines before a barrier.cluster.arrive (no cluster barrier between) keeps its timer read in place
and writes it after the next barrier.cluster.wait.

usage: edit.py IN.ptx OUT.ptx [SPAN]   (SPAN default 60)
"""
import re
import sys

STAMP = re.compile(r"\s*\{ \.reg \.pred p; \.reg \.u64 t; setp\.ne\.b32 p, (%r\d+), 0; "
                   r"mov\.u64 t, 0; @p mov\.u64 t, %globaltimer; "
                   r"@p red\.global\.max\.u64 \[(%rd\d+)\], t; \}")


def main(argv):
    if len(argv) not in (3, 4):
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    span = int(argv[3]) if len(argv) == 4 else 60
    lines = open(argv[1]).read().split("\n")
    arrives = [i for i, l in enumerate(lines) if "barrier.cluster.arrive" in l]
    out, pending, n = [], [], 0
    for i, l in enumerate(lines):
        m = STAMP.match(l)
        if m and any(0 < a - i <= span and
                     not any("barrier.cluster" in lines[j] for j in range(i + 1, a))
                     for a in arrives):
            out.append(f"\t{{ .reg .pred p; setp.ne.b32 p, {m[1]}, 0; mov.u64 %rdT{n}, 0; "
                       f"@p mov.u64 %rdT{n}, %globaltimer; }}")
            pending.append((m[1], m[2], n))
            n += 1
            continue
        out.append(l)
        if pending and "barrier.cluster.wait" in l:
            for who, at, k in pending:
                out.append(f"\t{{ .reg .pred p; setp.ne.b32 p, {who}, 0; "
                           f"@p red.global.max.u64 [{at}], %rdT{k}; }}")
            pending = []
    text = re.sub(r"(\t\.reg \.b64 \t%rd<\d+>;)", r"\1\n\t.reg .b64 %rdT<" + str(n) + ">;",
                  "\n".join(out), count=1)
    open(argv[2], "w").write(text)
    print(f"{argv[2]}: {n} stamps held")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
