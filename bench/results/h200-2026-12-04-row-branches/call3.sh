#!/bin/bash
# Row branches, call 3: the SASS of three old/new pairs of call 1 (ptxas and cuobjdump on the GPU
# host), the instructions alone, one a line. Run from the repository root with .carry/ab.
set -u
mkdir -p $OUT/s
for p in masked_bce-bf16-16384x1024 jsd-bf16-37x1000003 rms_norm-bf16-64x1000003; do
	for v in old new; do
		ptxas -arch=sm_90 .carry/ab/$p.$v.ptx -o /tmp/$p.$v.cubin && cuobjdump -sass /tmp/$p.$v.cubin | grep -E "^\s+/\*[0-9a-f]{4}\*/" | sed 's@^\s*/\*[0-9a-f]*\*/\s*@@; s@\s*/\*.*@@; s/ ;$//' > $OUT/s/$p.$v.sass
	done
done
cd $OUT && tar czf sass.tgz s && rm -rf s
