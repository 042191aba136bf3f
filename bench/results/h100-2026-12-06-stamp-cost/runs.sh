#!/bin/bash
# What calls 1, 2 and 4 share (sourced by callN.sh from the repository root): the build at
# .carry/rkc.xz unpacked, the device named in $O/$ENV (O is $OUT), then the loop over SHAPES
# "kernel:MxN:tag ...", ROUNDS (default 3) and V1 .. V<ROUNDS>
# the variants in each round's order (mkvar.py's edits of the every-block PTX, plain, e1, and samp for the default sampling),
# LOG the log's name under $O. Compiles each shape's PTX, times every variant ROUNDS rounds (the
# first checked against float64), then prints each variant's best against the plain kernel.
D=bench/results/h100-2026-12-06-stamp-cost
O=${OUT:-out}
mkdir -p "$O/ptx"
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/rkc.xz >/tmp/rkc && chmod +x /tmp/rkc
R=/tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$O/$ENV"
for s in $SHAPES; do
	IFS=: read -r k shape t <<<"$s"
	$R compile testdata/kernels/$k.rk --shape $shape --dtype bf16 -o $O/ptx/$t-plain.ptx
	$R compile testdata/kernels/$k.rk --shape $shape --dtype bf16 --regions --regions-every 1 -o $O/ptx/$t-e1.ptx
	case " $V1 " in *" samp "*)
		$R compile testdata/kernels/$k.rk --shape $shape --dtype bf16 --regions -o $O/ptx/$t-samp.ptx ;;
	esac
	python3 $D/mkvar.py $O/ptx/$t-e1.ptx $O/ptx/$t
done
: >"$O/$LOG"
for round in $(seq "${ROUNDS:-3}"); do
	for s in $SHAPES; do
		IFS=: read -r k shape t <<<"$s"
		vv=V$round
		vs=${!vv}
		for v in $vs; do
			chk=()
			[ $round = 1 ] && chk=(--check)
			line=$($R run testdata/kernels/$k.rk --shape $shape --dtype bf16 --ptx $O/ptx/$t-$v.ptx \
				--manifest $O/ptx/$t-$v.json --time --copy-gbps 3027 "${chk[@]}" 2>&1 | grep '^RESULT')
			echo "$round $k $v $line" >>"$O/$LOG"
		done
	done
done
python3 - "$O/$LOG" <<'PY'
import re, sys, collections
t = collections.defaultdict(list)
kernels, variants = [], []
for l in open(sys.argv[1]):
    r, k, v = l.split()[:3]
    if r == "1":
        kernels += [k] if k not in kernels else []
        variants += [v] if v not in variants else []
    m = re.search(r"us=([\d.]+)", l); st = re.search(r"status=(\S+)", l)
    t[(k, v)].append((float(m.group(1)) if m else float("nan"), st.group(1) if st else "?"))
for k in kernels:
    base = min(x for x, _ in t[(k, "plain")])
    for v in variants:
        xs = t[(k, v)]
        b = min(x for x, _ in xs)
        print(f"{k:20s} {v:6s} " + " ".join(f"{x:8.2f}" for x, _ in xs) + f"  best {b:8.2f}  {100*(b/base-1):+5.1f}%  " + ",".join(s for _, s in xs))
PY
