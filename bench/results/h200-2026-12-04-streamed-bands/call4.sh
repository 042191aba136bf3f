#!/bin/bash
# call 4 (exploration, .carry/new.xz): persistent bands, each CTA's segment of every row held in
# registers with its colsum partials (no shared-memory round trip a row), where the partials are
# heavy (layer_norm_backward bf16, masked_pool, quant_err_cols: the pick keeps the own pass) and
# at one light point against the streamed band; the pick first at each shape. Every run checked
# against float64 and timed.
set -u
O=${OUT:-out}
D=bench/results/h200-2026-12-04-streamed-bands
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/new.xz').read())" > /tmp/rkc && chmod +x /tmp/rkc
SECONDS=0
while read -r line; do
	[ $SECONDS -gt 400 ] && break
	echo "== $line"
	timeout 45 /tmp/rkc run $line --check --time --copy-gbps 4274 2>&1 | grep -v '^  '
done < $D/call4-runs.txt > $O/runs.log 2>&1
grep -E '^==|RESULT' $O/runs.log     # the table in ../h200-2026-12-04-streamed-bands.md, section 4
