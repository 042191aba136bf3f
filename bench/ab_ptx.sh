#!/bin/bash
# bench/ab.sh's points for a codegen change: each listed point compiled by the old build and by
# the new one (here, where LLVM is), and a line "kernel dtype MxN ptx:DIR/P.old.ptx NEW" for each
# point whose PTX differs, NEW "pick" (the new build's own compile on the GPU host) or, with
# -carry-new, "ptx:DIR/P.new.ptx" (so that a build that is not carried can be measured too).
# Both builds must pick the same config: a point whose manifests name different configs is left
# out with a note on stderr, or, with -any-config (a change to the codegen and the policy measured
# together, each build with its own pick), kept with the note. Points whose PTX is the same are
# listed on stderr as unchanged.
#
# usage: bench/ab_ptx.sh [-carry-new] [-any-config] OLD_RKC NEW_RKC POINTS DIR > points.txt
#   POINTS: lines "kernel dtype MxN [rkc compile arguments]" (kernel: a name in testdata/kernels,
#           or a path to a .rk file); '#' starts a comment
#   DIR: where the PTX and manifests go, relative to the repository root (an ignored path that
#        travels with the binary, e.g. .carry/ab)
set -u
cd "$(dirname "$0")/.."
carry_new=0 any_config=0
[ "${1:-}" = -carry-new ] && carry_new=1 && shift
[ "${1:-}" = -any-config ] && any_config=1 && shift
if [ $# != 4 ]; then
	echo "usage: bench/ab_ptx.sh [-carry-new] [-any-config] OLD_RKC NEW_RKC POINTS DIR" >&2
	exit 2
fi
OLD=$1 NEW=$2 POINTS=$3 DIR=$4
mkdir -p "$DIR" || exit 2
config() { python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["config"], sort_keys=True))' "$1"; }
while read -r kernel dtype shape args; do
	case "$kernel" in '' | '#'*) continue ;; esac
	file=testdata/kernels/$kernel.rk
	case $kernel in *.rk) file=$kernel ;; esac
	p="$DIR/$(basename "$kernel" .rk)-$dtype-$shape"
	# the same point with other arguments (--batch-invariant) gets files of its own
	[ -n "$args" ] && p="$p-$(printf '%s' "$args" | tr -c 'A-Za-z0-9=,.' '_')"
	# shellcheck disable=SC2086 # args are words
	if ! "$OLD" compile "$file" --dtype "$dtype" --shape "$shape" $args \
		-o "$p.old.ptx" >/dev/null 2>&1 ||
		! "$NEW" compile "$file" --dtype "$dtype" --shape "$shape" $args \
			-o "$p.new.ptx" >/dev/null 2>&1; then
		echo "ab_ptx: $kernel $dtype $shape: a build could not compile it" >&2
		continue
	fi
	if cmp -s "$p.old.ptx" "$p.new.ptx"; then
		echo "ab_ptx: $kernel $dtype $shape: unchanged" >&2
		rm -f "$p".*
		continue
	fi
	if [ "$(config "$p.old.json")" != "$(config "$p.new.json")" ]; then
		if [ $any_config = 0 ]; then
			echo "ab_ptx: $kernel $dtype $shape: the builds pick different configs, left out" >&2
			rm -f "$p".*
			continue
		fi
		echo "ab_ptx: $kernel $dtype $shape: the builds pick different configs, kept" >&2
	fi
	new=pick
	if [ $carry_new = 1 ]; then
		new="ptx:$p.new.ptx"
	else
		rm -f "$p.new.ptx" "$p.new.json"
	fi
	echo "$kernel $dtype $shape ptx:$p.old.ptx $new $args"
done <"$POINTS"
