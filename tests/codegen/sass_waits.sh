#!/bin/sh
# The SASS of a grid's loop at the points of sass_waits.txt, plain, with --regions and with every
# block stamped: bench/sass_waits.py finds no wait on a scoreboard set by loads the waiting
# instruction does not read. "Not run" (exit 77) where no nvdisasm is found (make deps fetches one
# into the build tree, DIR).
# usage: sass_waits.sh RKC DIR
rkc=$1
PATH="$PATH:/usr/local/cuda/bin:$2"
command -v nvdisasm >/dev/null || { echo "nvdisasm not found: not run"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
grep -v '^#' tests/codegen/sass_waits.txt | while read -r kernel dtype shape; do
	[ -n "$kernel" ] || continue
	for mode in plain sampled every; do
		case $mode in
		plain) set -- ;;
		sampled) set -- --regions ;;
		every) set -- --regions --regions-every 1 ;;
		esac
		if ! $rkc compile "testdata/kernels/$kernel.rk" --shape "$shape" --dtype "$dtype" "$@" \
			-o "$t/k.cubin" >"$t/log" 2>&1; then
			echo "FAIL: $kernel $dtype $shape $mode: compile: $(cat "$t/log")"
			exit 1
		fi
		out=$(python3 bench/sass_waits.py "$t/k.cubin") || { echo "FAIL: sass_waits.py: $out"; exit 1; }
		case "$out" in
		*": 0 aliased waits") echo "ok: $kernel $dtype $shape $mode" ;;
		*) echo "FAIL: $kernel $dtype $shape $mode: $out"; exit 1 ;;
		esac
	done
done
