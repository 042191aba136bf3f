#!/bin/bash
# fp8 stores and loads on the GPU, bit for bit: tests/codegen/f8_store.rk and f8_load.rk compiled
# for sm_80 (the software encoding and decoding, f8_enc and f8_dec, which the emulator runs and
# test_math checks against C) and for sm_90 (the hardware's cvt.rn.satfinite pairs for stores,
# cvt.rn.f16x2 pairs for loads) on the same inputs (f8_load's from bench/fp8_inputs.json); each
# output row's DIGEST must agree.
# usage: bench/fp8_exact.sh RKC   (on the GPU host, from the source root; exit 1 on a mismatch)
set -u
rkc=${1:?usage: bench/fp8_exact.sh RKC}
fails=0
# kernel, shape, config ("-": the policy's pick), row: odd widths (element-wise heads and tails), pairs in
# the aligned body, one row of 4M elements
while read -r k shape cfg row; do
	in=()
	[ "$k" = f8_load ] && in=(--inputs bench/fp8_inputs.json)
	k=tests/codegen/$k.rk
	for dt in bf16 fp32; do
		for seed in 1 2; do
			d=()
			for arch in sm_80 sm_90; do
				args=(run "$k" --shape "$shape" --dtype "$dt" --arch "$arch" --check
					--seed "$seed" --digest-row "$row" "${in[@]}")
				[ "$cfg" = - ] || args+=(--config "$cfg")
				out=$("$rkc" "${args[@]}" 2>&1)
				rc=$?
				d+=("$(printf '%s\n' "$out" | grep '^DIGEST' | sed 's/.*output=//')")
				[ $rc = 0 ] || { echo "FAIL $arch $shape $dt: rkc run exit $rc"; printf '%s\n' "$out" | tail -5; fails=$((fails + 1)); }
			done
			if [ -n "${d[0]}" ] && [ "${d[0]}" = "${d[1]}" ]; then
				echo "same   ${k##*/} $shape $dt seed $seed row $row ${cfg}: $(printf '%s' "${d[1]}" | tr '\n' ' ')"
			else
				echo "DIFFER ${k##*/} $shape $dt seed $seed row $row ${cfg}: sm_80 [$(printf '%s' "${d[0]}" | tr '\n' ' ')] sm_90 [$(printf '%s' "${d[1]}" | tr '\n' ' ')]"
				fails=$((fails + 1))
			fi
		done
	done
done <<'POINTS'
f8_store 4096x77 - 1234
f8_store 64x4096 persistent=1,r_block=4096,m_block=1,num_warps=4,vec=4,split=1 17
f8_store 1x4194301 - 0
f8_store 1000x1000 persistent=1,r_block=1024,m_block=1,num_warps=2,vec=2,split=1 999
f8_load 4096x77 - 1234
f8_load 64x4096 persistent=1,r_block=4096,m_block=1,num_warps=4,vec=4,split=1 17
f8_load 1x4194301 - 0
f8_load 1000x1000 persistent=1,r_block=1024,m_block=1,num_warps=2,vec=2,split=1 999
f8_load 333x4096 persistent=0,r_block=1024,m_block=1,num_warps=4,vec=1,split=1 100
POINTS
echo "fp8_exact: $fails failure(s)"
[ $fails = 0 ]
