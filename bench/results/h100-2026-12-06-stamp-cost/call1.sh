#!/bin/bash
# What the stamps cost at the two suite shapes over 5% (h100-2026-12-06-inproc-plain.md): each
# shape's plain kernel, every block stamped (e1), and three edits of e1 (mkvar.py): clk (the timer
# read from %clock64), sink (the timer read, its value to a shared word, no global red), const
# (no timer read, the red of a constant); rms_norm_backward also at the default sampling (samp).
# Three rounds, the order turned each round; the first round checks each against float64.
# Run from the repository root on the GPU host with the static build xz-compressed at .carry/rkc.xz.
set -u
D=bench/results/h100-2026-12-06-stamp-cost
O=${OUT:-out}
mkdir -p "$O/ptx"
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/rkc.xz >/tmp/rkc && chmod +x /tmp/rkc
R=/tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$O/env.txt"
shapes="dynamic_quant:512x262144:dq rms_norm_backward:1024x28672:rb"
for s in $shapes; do
	IFS=: read -r k shape t <<<"$s"
	$R compile testdata/kernels/$k.rk --shape $shape --dtype bf16 -o $O/ptx/$t-plain.ptx
	$R compile testdata/kernels/$k.rk --shape $shape --dtype bf16 --regions --regions-every 1 -o $O/ptx/$t-e1.ptx
	$R compile testdata/kernels/$k.rk --shape $shape --dtype bf16 --regions -o $O/ptx/$t-samp.ptx
	python3 $D/mkvar.py $O/ptx/$t-e1.ptx $O/ptx/$t
done
: >"$O/runs.txt"
for round in 1 2 3; do
	for s in $shapes; do
		IFS=: read -r k shape t <<<"$s"
		vs="plain e1 clk sink const samp"
		[ $round = 2 ] && vs="samp const sink clk e1 plain"
		[ $round = 3 ] && vs="sink plain samp e1 const clk"
		for v in $vs; do
			chk=()
			[ $round = 1 ] && chk=(--check)
			line=$($R run testdata/kernels/$k.rk --shape $shape --dtype bf16 --ptx $O/ptx/$t-$v.ptx \
				--manifest $O/ptx/$t-$v.json --time --copy-gbps 3027 "${chk[@]}" 2>&1 | grep '^RESULT')
			echo "$round $k $v $line" >>"$O/runs.txt"
		done
	done
done
python3 - "$O/runs.txt" <<'PY'
import re, sys, collections
t = collections.defaultdict(list)
for l in open(sys.argv[1]):
    r, k, v = l.split()[:3]
    m = re.search(r"us=([\d.]+)", l); st = re.search(r"status=(\S+)", l)
    t[(k, v)].append((float(m.group(1)) if m else float("nan"), st.group(1) if st else "?"))
for k in ["dynamic_quant", "rms_norm_backward"]:
    base = min(x for x, _ in t[(k, "plain")])
    for v in ["plain", "e1", "clk", "sink", "const", "samp"]:
        xs = t[(k, v)]
        b = min(x for x, _ in xs)
        print(f"{k:18s} {v:6s} " + " ".join(f"{x:8.2f}" for x, _ in xs) + f"  best {b:8.2f}  {100*(b/base-1):+5.1f}%  " + ",".join(s for _, s in xs))
PY
