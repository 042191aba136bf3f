#!/bin/bash
# call 5 (exploration, .carry/new.xz): paired streamed bands (one row a CTA, two CTAs an SM of 8
# warps, clusters of 4 to 16) where the colsum partials are heavy (layer_norm_backward bf16,
# masked_pool, quant_err_cols: the pick keeps the own pass), the pick first at each shape. Every
# run checked against float64 and timed.
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-04-streamed-bands
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/new.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
SECONDS=0
while read -r line; do
	[ $SECONDS -gt 400 ] && break
	echo "== $line"
	timeout 45 /tmp/rkc run $line --check --time --copy-gbps 4274 2>&1 | grep -v '^  '
done < $D/call5-runs.txt > $O/runs.log 2>&1
grep -E '^==|RESULT' $O/runs.log     # the table in ../h200-2026-12-04-streamed-bands.md, section 5
