#!/bin/bash
# On the build machine: the PTX of call 2, old (RA=0: the code before the patch, byte-identical)
# and realigned, from a build with realign.patch applied (its RA/RW/RS environment knobs are the
# experiment's only). ra*: the aligned address as the element's address less its offset; rm*: as
# the address masked (the patch's final form); the digit: the codegen's words a row over the
# element's size, which sets u. Run from the repository root; writes .carry/ptx.
set -eu
R=${1:-build-rel/rkc}
mkdir -p .carry/ptx
i=0
while read -r k s d; do
	i=$((i + 1))
	RA=0 $R compile "$k" --shape "$s" --dtype "$d" -o .carry/ptx/p$i.orig.ptx >/dev/null
	for rw in 3 5; do
		RW=$rw $R compile "$k" --shape "$s" --dtype "$d" -o .carry/ptx/p$i.rm$rw.ptx >/dev/null
	done
done < bench/results/h200-2026-12-04-colpass-realign/call2-points.txt
