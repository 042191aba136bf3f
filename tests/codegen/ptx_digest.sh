#!/bin/sh
# The PTX digest of every golden point: one line "policy arch kernel MxN dtype sha256" each, in the
# golden files' order. Run before and after a change that must not move codegen, then diff.
# usage: tests/codegen/ptx_digest.sh RKC > digests.txt   (from the source root)
set -eu
rkc=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for g in testdata/golden/*.json; do
	python3 - "$g" >"$tmp/points" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["points"]:
    print(d["policy"], d["arch"], p["kernel"], "%dx%d" % (p["M"], p["N"]), p["dtype"])
PY
	while read -r policy arch kernel shape dtype; do
		"$rkc" compile "testdata/kernels/$kernel.rk" --shape "$shape" --dtype "$dtype" \
			--arch "$arch" --policy "$policy" -o "$tmp/k.ptx" >/dev/null
		echo "$policy $arch $kernel $shape $dtype $(sha256sum <"$tmp/k.ptx" | cut -c1-16)"
	done <"$tmp/points"
done
