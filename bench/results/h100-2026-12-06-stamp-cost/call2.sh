#!/bin/bash
# Call 2: which part of the global reds costs. Every block stamped (e1) against its edits (mkvar.py):
# sink (no global red), tid0 (thread 0 alone stamps: one red a boundary, not one a warp) and cta
# (the red relaxed at CTA scope), at rms_norm_backward 1024x28672, layer_norm_backward 4096x4096
# and dynamic_quant 512x262144 (bf16). Three rounds in turned orders, the first checked.
# Run from the repository root on the GPU host with the static build xz-compressed at .carry/rkc.xz.
set -u
D=bench/results/h100-2026-12-06-stamp-cost
O=${OUT:-out}
mkdir -p "$O/ptx"
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/rkc.xz >/tmp/rkc && chmod +x /tmp/rkc
R=/tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$O/env2.txt"
shapes="rms_norm_backward:1024x28672:rb layer_norm_backward:4096x4096:lb dynamic_quant:512x262144:dq"
for s in $shapes; do
	IFS=: read -r k shape t <<<"$s"
	$R compile testdata/kernels/$k.rk --shape $shape --dtype bf16 -o $O/ptx/$t-plain.ptx
	$R compile testdata/kernels/$k.rk --shape $shape --dtype bf16 --regions --regions-every 1 -o $O/ptx/$t-e1.ptx
	python3 $D/mkvar.py $O/ptx/$t-e1.ptx $O/ptx/$t
done
: >"$O/runs2.txt"
for round in 1 2 3; do
	for s in $shapes; do
		IFS=: read -r k shape t <<<"$s"
		vs="plain e1 sink tid0 cta"
		[ $round = 2 ] && vs="cta tid0 sink e1 plain"
		[ $round = 3 ] && vs="sink plain cta e1 tid0"
		for v in $vs; do
			chk=()
			[ $round = 1 ] && chk=(--check)
			line=$($R run testdata/kernels/$k.rk --shape $shape --dtype bf16 --ptx $O/ptx/$t-$v.ptx \
				--manifest $O/ptx/$t-$v.json --time --copy-gbps 3027 "${chk[@]}" 2>&1 | grep '^RESULT')
			echo "$round $k $v $line" >>"$O/runs2.txt"
		done
	done
done
rm -rf "$O/ptx"
python3 - "$O/runs2.txt" <<'PY'
import re, sys, collections
t = collections.defaultdict(list)
for l in open(sys.argv[1]):
    r, k, v = l.split()[:3]
    m = re.search(r"us=([\d.]+)", l); st = re.search(r"status=(\S+)", l)
    t[(k, v)].append((float(m.group(1)) if m else float("nan"), st.group(1) if st else "?"))
for k in ["rms_norm_backward", "layer_norm_backward", "dynamic_quant"]:
    base = min(x for x, _ in t[(k, "plain")])
    for v in ["plain", "e1", "sink", "tid0", "cta"]:
        xs = t[(k, v)]
        b = min(x for x, _ in xs)
        print(f"{k:20s} {v:6s} " + " ".join(f"{x:8.2f}" for x, _ in xs) + f"  best {b:8.2f}  {100*(b/base-1):+5.1f}%  " + ",".join(s for _, s in xs))
PY
