#!/bin/bash
# A/B of two configs at listed points: each point run old, new (checked), new, old, so drift hits
# both alike; one RESULT line a run, then bench/ab_report.py's table. Run from the repository root
# on the GPU host. A policy change is measured with the new build alone: old is the old build's
# pick forced with --config (the codegen is the same), new the new build's pick.
#
# usage: bench/ab.sh RKC POINTS
#   POINTS: a file of lines "kernel dtype MxN OLD NEW [more rkc run arguments]" (kernel: a name
#           in testdata/kernels, or a path to a .rk file), where OLD and NEW
#           are each "pick" (the policy's own), a --config value ("k=v,k=v"), or "ptx:F.ptx" (a
#           PTX file that rkc compile wrote, run with its manifest F.json: a codegen change is
#           measured by compiling the old build's PTX here and carrying it); '#' starts a comment
# env:  OUT    where the log goes (default bench/out; the log is $OUT/ab.txt)
#       LIMIT  seconds the whole A/B may take: points not started by then are listed as skipped
#              (default 540)
#       COPY   copy bandwidth in GB/s for the % column (default: measured by the first run)
#       OLD_RKC  the build the old runs use (default RKC): where a policy change moves what
#              --config may not force, as the batch-invariant mode's reduction order, each build
#              runs its own pick ("pick pick")
set -u
cd "$(dirname "$0")/.."
if [ $# != 2 ]; then
	echo "usage: bench/ab.sh RKC POINTS" >&2
	exit 2
fi
RKC=$1 POINTS=$2
OUT=${OUT:-bench/out}
LIMIT=${LIMIT:-540}
mkdir -p "$OUT"
log="$OUT/ab.txt"
: >"$log"
copy=()
[ -n "${COPY:-}" ] && copy=(--copy-gbps "$COPY")
start=$(date +%s)

# run TAG CONFIG POINT KERNEL DTYPE SHAPE [ARGS...]: one timed run, its RESULT line tagged with
# TAG and POINT (the shape and the point's own arguments, which the report groups by)
run() {
	local tag=$1 cfg=$2 point=$3 kernel=$4 dtype=$5 shape=$6
	shift 6
	case "$cfg" in
	pick) ;;
	ptx:*)
		local f=${cfg#ptx:}
		set -- --ptx "$f" --manifest "${f%.ptx}.json" "$@"
		;;
	*) set -- --config "$cfg" "$@" ;;
	esac
	local res file=testdata/kernels/$kernel.rk
	case $kernel in *.rk) file=$kernel ;; esac
	local bin=$RKC
	[ "$tag" = old ] && bin=${OLD_RKC:-$RKC}
	res=$(timeout 300 "$bin" run "$file" --dtype "$dtype" --shape "$shape" \
		--time "${copy[@]}" "$@" </dev/null 2>&1)
	if [ ${#copy[@]} = 0 ]; then
		local g
		g=$(printf '%s\n' "$res" | sed -n 's/.*% of copy (\([0-9.]*\) GB\/s).*/\1/p' | head -1)
		[ -n "$g" ] && copy=(--copy-gbps "$g")
	fi
	local line
	line=$(printf '%s\n' "$res" | grep '^RESULT' | tail -1)
	[ -n "$line" ] || line="RESULT kernel=$kernel dtype=$dtype status=ERROR $(printf '%s' "$res" | tail -1)"
	echo "$tag $point | $line" >>"$log"
}

n=0
while read -r kernel dtype shape old new args; do
	case "$kernel" in '' | '#'*) continue ;; esac
	# the line's number first: the report keeps two lines of the same point apart
	n=$((n + 1))
	point="#$n $shape ${args:-}"
	if [ $(($(date +%s) - start)) -ge "$LIMIT" ]; then
		echo "skipped $point | RESULT kernel=$kernel dtype=$dtype status=SKIPPED" >>"$log"
		continue
	fi
	# shellcheck disable=SC2086 # args are words
	{
		run old "$old" "$point" "$kernel" "$dtype" "$shape" $args
		run new "$new" "$point" "$kernel" "$dtype" "$shape" $args --check
		run new "$new" "$point" "$kernel" "$dtype" "$shape" $args
		run old "$old" "$point" "$kernel" "$dtype" "$shape" $args
	}
done <"$POINTS"
echo "ab: $(($(date +%s) - start)) s" >>"$log"
python3 bench/ab_report.py "$log"
