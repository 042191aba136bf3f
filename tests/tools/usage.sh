#!/bin/sh
# The command line's usage errors, data-driven: usage.txt holds cases, each a line "$ ARGS" (shell
# words) followed by exactly what rkc ARGS writes to stderr and "exit N", then a blank line.
# RKC_UPDATE=1 rewrites the expected lines from what rkc does now. Then every command's --help (and
# rkc help CMD) exits 0 with its usage on stdout, and every option it lists is one it takes.
# $1 is the rkc binary; run from the source root.
rkc=$1
cases=$(dirname "$0")/usage.txt
fail=0
k=testdata/kernels/sum.rk

# stderr and the exit status of rkc ARGS, the way usage.txt writes them
run() {
	eval "\"\$rkc\" $1" 2>&1 >/dev/null </dev/null
	echo "exit $?"
}

new=$(mktemp)
trap 'rm -f "$new"' EXIT
open= args= want=
while IFS= read -r line || [ -n "$line" ]; do
	case $line in
	'$ '*)
		open=1 args=${line#\$ }
		want=
		;;
	'')
		if [ -n "$open" ]; then
			got=$(run "$args")
			printf '$ %s\n%s\n\n' "$args" "$got" >>"$new"
			if [ -z "$RKC_UPDATE" ] && [ "$got" != "${want%?}" ]; then
				printf 'FAIL: rkc %s\n--- want\n%s--- got\n%s\n' "$args" "$want" "$got"
				fail=1
			fi
		else
			printf '%s\n' "$line" >>"$new"
		fi
		open=
		;;
	*)
		if [ -n "$open" ]; then
			want="$want$line
"
		else
			printf '%s\n' "$line" >>"$new"
		fi
		;;
	esac
done <"$cases"
[ -z "$RKC_UPDATE" ] || cp "$new" "$cases"

# Every command rkc --help lists: --help and help CMD print its usage to stdout and exit 0, and
# each option its --help lists is taken (given before --help, it is parsed, then help wins).
cmds=$("$rkc" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
[ "$(echo $cmds)" = "check print explain compile golden run tune table" ] || {
	echo "FAIL: rkc --help lists '$(echo $cmds)'"
	fail=1
}
for c in $cmds; do
	for form in "$c --help" "$c -h" "help $c" "$c $k --bogus-after-help -h"; do
		# shellcheck disable=SC2086 # $form is the arguments
		out=$("$rkc" $form 2>&1)
		rc=$?
		case $form in *bogus*) want_rc=2 ;; *) want_rc=0 ;; esac
		if [ $rc != $want_rc ]; then
			printf 'FAIL: rkc %s: exit %s\n%s\n' "$form" "$rc" "$out"
			fail=1
		elif [ $want_rc = 0 ] && [ "${out#usage: rkc "$c" }" = "$out" ]; then
			printf 'FAIL: rkc %s: no usage line\n%s\n' "$form" "$out"
			fail=1
		fi
	done
	opts=$("$rkc" help "$c" | sed -n 's/^  \(-[-a-z]*\)\( [^ ]*\)\{0,1\}  .*/\1\2/p')
	printf '%s\n' "$opts" | while read -r opt arg; do
		[ "$opt" != -h, ] || continue
		# shellcheck disable=SC2086 # $arg is empty for a flag
		out=$("$rkc" "$c" "$opt" ${arg:+x} --help 2>&1) ||
			{ printf 'FAIL: rkc %s lists %s %s, which it does not take:\n%s\n' "$c" "$opt" "$arg" "$out"; exit 1; }
	done || fail=1
done
# check --json: a JSON object a line for each file, good or bad.
want='{"file":"testdata/kernels/sum.rk","inputs":1,"kernel":"sum","ok":true,"ops":3,"outputs":1,"reductions":1}
{"error":"error: cannot open '"'nope.rk'"': No such file or directory","file":"nope.rk","ok":false}'
got=$("$rkc" check --json $k nope.rk 2>/dev/null)
[ $? = 1 ] && [ "$got" = "$want" ] || {
	printf 'FAIL: check --json:\n%s\n' "$got"
	fail=1
}
[ $fail = 0 ] && echo ok
exit $fail
