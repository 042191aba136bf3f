#!/bin/bash
# smem=1 against smem=2 as the chunks a CTA's first pass streams grow: each line of the list
# (kernel MxN dtype) at the policy's pick with r_block times 2, 1, 1/2 and 1/4 (where valid),
# timed under both fills (rkc run --time; the smem=2 run at the pick's r_block also --check).
# Full logs under $OUT/chunks, the table last.
# usage: bench/onchip/fill_chunks.sh RKC      (from the repository root on the GPU host)
set -u
cd "$(dirname "$0")/../.."
RKC=${1:?usage: bench/onchip/fill_chunks.sh RKC}
OUT=${OUT:-bench/out}
mkdir -p "$OUT/chunks"
copy=()
while read -r k shape dt; do
	case $k in '#'* | '') continue ;; esac
	rb=$("$RKC" explain "testdata/kernels/$k.rk" --shape "$shape" --dtype "$dt" --json |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["r_block"])')
	for f in 2 1 h q; do
		case $f in 2) r=$((rb * 2)) ;; 1) r=$rb ;; h) r=$((rb / 2)) ;; q) r=$((rb / 4)) ;; esac
		line="$k $shape $dt r_block=$r"
		for s in 1 2; do
			chk=()
			[ $f = 1 ] && [ $s = 2 ] && chk=(--check)
			log="$OUT/chunks/$k.$shape.$dt.$r.$s.log"
			timeout 120 "$RKC" run "testdata/kernels/$k.rk" --shape "$shape" --dtype "$dt" \
				--time "${chk[@]}" --config "r_block=$r,smem=$s" "${copy[@]}" >"$log" 2>&1
			if [ ${#copy[@]} = 0 ]; then
				g=$(sed -n 's/.*% of copy (\([0-9.]*\) GB\/s).*/\1/p' "$log" | head -1)
				[ -n "$g" ] && copy=(--copy-gbps "$g")
			fi
			u=$(sed -n 's/^RESULT.*status=\([A-Za-z]*\).* us=\([0-9.]*\).*/\2 \1/p' "$log")
			line="$line | ${u:-$(grep -o 'error: .*' "$log" | head -1 | cut -c1-60)}"
		done
		echo "$line"
	done
done <"${CHUNKS:-bench/onchip/fill_chunks.txt}" | tee "$OUT/chunks.txt"
