#!/bin/bash
# Batch invariance on the GPU: one row of the seed's stream (row R) run inside batches of M = 1, 3,
# 64 and 4096 rows at a different position in each (0, 2, 10 and R), every kernel, each dtype, each
# N; each run checked against the float64 reference and the row's output bits hashed (rkc run
# --first-row --digest-row). A kernel is invariant at a point when the four hashes of every row
# output ([M] or [M,N]) agree; an [N] output (a sum over the batch's rows, DIGEST span=batch)
# differs by definition and is counted apart. MODES says which policies run: "--batch-invariant" (the mode) and "" (the default, to show
# that the check can tell). Full logs under $OUT/invariance, a table last.
#
# usage: bench/invariance.sh RKC      (from the repository root on the GPU host)
# env:   OUT (default bench/out), DTYPES (default "bf16 f32"), NS (default 4099), KERNELS
#        (default every kernel of testdata/kernels), MODES (default "--batch-invariant,": a comma
#        list, an empty entry the default policy; "" runs the default alone)
set -u
cd "$(dirname "$0")/.."
RKC=${1:?usage: bench/invariance.sh RKC}
OUT=${OUT:-bench/out}
DTYPES=${DTYPES:-bf16 f32}
NS=${NS:-4099}
KERNELS=${KERNELS:-$(basename -s .rk testdata/kernels/*.rk)}
MODES=${MODES---batch-invariant,}
R=4000
mkdir -p "$OUT/invariance"
# (M, first row) so that stream row R sits at positions 0, 2, 10 and R
placements="1:$R 3:$((R - 2)) 64:$((R - 10)) 4096:0"
modes=()
rest=$MODES,
while [ -n "$rest" ]; do
	modes+=("${rest%%,*}")
	rest=${rest#*,}
done
for mode in "${modes[@]}"; do
	name=${mode:-default}
	name=${name#--}
	for k in $KERNELS; do
		for dt in $DTYPES; do
			for N in $NS; do
				log="$OUT/invariance/$name.$k.$dt.$N.log"
				: >"$log"
				for pl in $placements; do
					M=${pl%%:*} F=${pl##*:}
					# shellcheck disable=SC2086 # $mode is one option or none
					timeout 120 "$RKC" run "testdata/kernels/$k.rk" --shape "${M}x$N" \
						--dtype "$dt" --check --first-row "$F" \
						--digest-row $((R - F)) $mode >>"$log" 2>&1
				done
				ok=$(grep -c 'status=ok' "$log")
				# one distinct hash per row output when the row's bits agree in every batch
				rowd=$(grep '^DIGEST .* span=row ' "$log")
				outs=$(sed -n 's/^DIGEST .* output=\([^ ]*\) .*/\1/p' <<<"$rowd" | sort -u | wc -l)
				hashes=$(sed -n 's/^DIGEST .* output=\([^ ]*\) hash=\(.*\)/\1 \2/p' <<<"$rowd" |
					sort -u | wc -l)
				n=$(grep -c '^DIGEST' <<<"$rowd")
				batch=$(grep '^DIGEST .* span=batch ' "$log" |
					sed -n 's/.* output=\([^ ]*\) .*/\1/p' | sort -u | wc -l)
				verdict=differs
				[ "$outs" -gt 0 ] && [ "$hashes" = "$outs" ] && [ "$n" = $((outs * 4)) ] &&
					verdict=identical
				echo "$name $k $dt $N: $ok/4 checks ok, $outs row output(s), $verdict;" \
					"$batch [N] output(s) not compared"
			done
		done
	done
done | tee "$OUT/invariance.txt"
echo
for mode in "${modes[@]}"; do
	name=${mode:-default}
	name=${name#--}
	echo "$name: $(grep -c "^$name .*identical" "$OUT/invariance.txt") identical," \
		"$(grep -c "^$name .*differs" "$OUT/invariance.txt") differ," \
		"$(grep "^$name " "$OUT/invariance.txt" | grep -vc ' 4/4 checks ok') with a failed check"
done
