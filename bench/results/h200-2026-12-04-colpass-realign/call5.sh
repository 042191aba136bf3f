#!/bin/bash
# torch.compile against the old build and the new one, same process each, at odd-width colsum points (bf16)
set -u
for b in rkc0 rkc1; do python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" .carry/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
for b in rkc0 rkc1; do
	timeout 250 python3 bench/torch_compare.py --rkc /tmp/$b --heldout .carry/hd --dtype bf16 --shapes-per-kernel 3 --copy-gbps 4274 --csv $OUT/tc_$b.csv > $OUT/tc_$b.txt 2>&1
	tail -12 $OUT/tc_$b.txt
done
