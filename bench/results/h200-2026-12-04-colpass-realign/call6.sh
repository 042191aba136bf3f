#!/bin/bash
# racecheck and synccheck at two picks of the narrow whole trips (the final build)
set -u
python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/rkc1.xz > /tmp/rkc1 && chmod +x /tmp/rkc1
for t in racecheck synccheck; do
for p in "bench/heldout/wb_grad.rk 9x4097 bf16" "tests/codegen/colpass_whole.rk 3x50257 bf16" "bench/heldout/bias_gelu_back.rk 5x3001 fp16"; do
	set -- $p
	r=$(timeout 100 compute-sanitizer --tool $t --error-exitcode 9 /tmp/rkc1 run $1 --shape $2 --dtype $3 --check --inputs .carry/hd/inputs.json 2>&1)
	echo "rc=$? $t $p: $(printf '%s\n' "$r" | grep 'ERROR SUMMARY\|HAZARD' | head -1) $(printf '%s\n' "$r" | grep -o 'status=[a-z]*') $(printf '%s\n' "$r" | grep -o '"colpass":[01]')"
done; done | tee $OUT/san.txt
