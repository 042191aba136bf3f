#!/bin/bash
# The kernels with sums over rows (colsum) on the GPU: checked and timed on the training suite at
# bf16 and fp32 (bench/gpu_run.sh), compute-sanitizer memcheck, racecheck and synccheck at odd
# shapes, and bench/torch_compare.py against torch.compile and, with a Liger wheel, Liger Kernel.
# Run from the repository root on the GPU host; full logs under $OUT, a short table last.
#
# usage: bench/colsum_gpu.sh RKC [LIGER_WHEEL]
set -u
cd "$(dirname "$0")/.."
RKC=$1
LIGER=${2:-}
OUT=${OUT:-bench/out}
KERNELS=${KERNELS:-rms_norm_backward layer_norm_backward}
mkdir -p "$OUT/colsum"
OUT=$OUT/colsum SUITES=training KERNELS="$KERNELS" SANITIZE=0 bench/gpu_run.sh "$RKC" \
	>"$OUT/colsum/gpu_run.txt" 2>&1
tail -n 30 "$OUT/colsum/gpu_run.txt"
# odd shapes: one row, one column, a prime row (vec 1), short rows of an odd length, many rows
odd=(--shape 1x4096 --shape 64x1 --shape 37x4099 --shape 1000x33 --shape 100003x64)
for k in $KERNELS; do
	for tool in memcheck racecheck synccheck; do
		log="$OUT/colsum/$tool.$k.log"
		timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 9 --print-limit 20 \
			"$RKC" run "testdata/kernels/$k.rk" --dtype bf16 --check "${odd[@]}" >"$log" 2>&1
		echo "sanitize $tool $k: exit $?, $(grep -c 'status=ok' "$log")/5 ok," \
			"$(grep -o 'ERROR SUMMARY: [0-9]* errors*' "$log")"
	done
done
lig=()
[ -n "$LIGER" ] && lig=(--liger "$LIGER")
for dt in bf16 f32; do
	python3 bench/torch_compare.py --rkc "$RKC" --dtype "$dt" --suites training \
		--kernels "${KERNELS// /,}" --shapes-per-kernel 4 "${lig[@]}" \
		--csv "$OUT/colsum/torch_compare.$dt.csv" --workdir "$OUT/colsum/ptx" \
		>"$OUT/colsum/torch_compare.$dt.txt" 2>&1
	echo "torch_compare $dt: exit $?"
	tail -n 14 "$OUT/colsum/torch_compare.$dt.txt"
done
