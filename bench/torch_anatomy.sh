#!/bin/sh
# torch.compile's kernels beside rkc's at some suite points, for reading why one is faster: the
# timed table (bench/torch_compare.py), one ncu pass over the same points (--once: the check, the
# compile and one launch of each), and the code of both (rkc's PTX, ptxas -v and SASS; Triton's
# PTX, SASS and inductor's generated source for every config inductor compiled and benchmarked).
# Run from the repository root on the GPU host (ncu, cuobjdump, torch, triton).
#
# usage: bench/torch_anatomy.sh RKC SUITES KERNELS [DTYPE]
#   SUITES: torch_compare's --suites (e.g. tiny_rows:4,transfer:3); KERNELS: comma-separated
# env:  OUT   where anatomy.tgz goes (default bench/out); W  the work directory (default
#             $OUT/anatomy, removed first); ARCH  for ptxas (default sm_90); NCU_LIMIT  seconds
#             for the ncu pass (default 300)
# The archive holds tc.txt and tc.csv (the table), ncu.csv and ncu.txt (bench/ncu_table.py's
# lines), ptx/ (rkc), tri/ and ind/ (Triton's cache and inductor's).
set -u
cd "$(dirname "$0")/.." || exit 2
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
	echo "usage: bench/torch_anatomy.sh RKC SUITES KERNELS [DTYPE]" >&2
	exit 2
fi
RKC=$1 SUITES=$2 KERNELS=$3 DTYPE=${4:-bf16}
OUT=${OUT:-bench/out}
W=${W:-$OUT/anatomy}
ARCH=${ARCH:-sm_90}
rm -rf "$W" && mkdir -p "$W" || exit 2
export TORCHINDUCTOR_CACHE_DIR="$W/ind" TRITON_CACHE_DIR="$W/tri"
# rkc's entries are the kernels' names; inductor's start with triton_
names=$(printf '%s' "$KERNELS" | tr ',' '|')
python3 bench/torch_compare.py --rkc "$RKC" --suites "$SUITES" --kernels "$KERNELS" \
	--dtype "$DTYPE" --csv "$W/tc.csv" --json "$W/tc.json" --workdir "$W/ptx" >"$W/tc.txt" 2>&1
echo "table: exit $?"
tail -n 12 "$W/tc.txt"
timeout "${NCU_LIMIT:-300}" ncu --clock-control none --kernel-name "regex:^($names)\$|^triton" \
	--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
	--section MemoryWorkloadAnalysis --csv --page details \
	python3 bench/torch_compare.py --rkc "$RKC" --suites "$SUITES" --kernels "$KERNELS" \
	--dtype "$DTYPE" --csv "$W/once.csv" --json "$W/once.json" --workdir "$W/ptx.once" --once \
	>"$W/ncu.csv" 2>"$W/ncu.err"
echo "ncu: exit $?"
rm -rf "$W/ptx.once"
python3 bench/ncu_table.py "$W/ncu.csv" >"$W/ncu.txt" 2>&1
find "$W/tri" -name '*.cubin' -exec sh -c 'cuobjdump -sass "$1" >"$1.sass" 2>&1' sh {} \;
for p in "$W"/ptx/*.ptx; do
	[ -e "$p" ] || continue
	b=${p%.ptx}
	ptxas -arch="$ARCH" -v "$p" -o "$b.cubin" >"$b.ptxas" 2>&1 && cuobjdump -sass "$b.cubin" >"$b.sass" 2>&1
	rm -f "$b.cubin"
done
tar czf "$OUT/anatomy.tgz" -C "$(dirname "$W")" "$(basename "$W")" && echo "wrote $OUT/anatomy.tgz"
