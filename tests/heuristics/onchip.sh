#!/bin/sh
# Forced shared-memory and cluster configs that cannot run: explain and compile both refuse each
# with the message in onchip.txt, and exit 1.
rkc=$1
t=$(mktemp -d "$2/onchip.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
while IFS='|' read -r point msg; do
	case $point in '#'* | '') continue ;; esac
	# shellcheck disable=SC2086 # the point is its words
	set -- $point
	msg=${msg# }
	for cmd in explain compile; do
		o=
		rm -f "$t/k.ptx"
		[ $cmd = compile ] && o="-o $t/k.ptx"
		# shellcheck disable=SC2086 # $o is an option and its value, or nothing
		out=$("$rkc" $cmd "testdata/kernels/$1.rk" --shape "$2" --dtype "$3" --arch "$4" \
			--config "$5" $o 2>&1 >"$t/out")
		rc=$?
		[ -e "$t/k.ptx" ] && echo "FAIL $cmd $point: wrote a PTX file" && fail=1
		want="rkc $cmd: error: infeasible --config '$5': $msg"
		if [ $rc -ne 1 ] || [ "$out" != "$want" ]; then
			echo "FAIL $cmd $point: exit $rc"
			echo "  got:  $out"
			echo "  want: $want"
			fail=1
		fi
	done
done <tests/heuristics/onchip.txt
exit $fail
