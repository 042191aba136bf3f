#!/bin/sh
# Data test: each explain/NAME.args is a command line for rkc explain; explain/NAME.out is its
# expected output (stdout and stderr) and exit status. RKC_UPDATE=1 rewrites the .out files.
rkc=$1
dir=$(dirname "$0")/explain
fail=0
for args in "$dir"/*.args; do
	want=${args%.args}.out
	got=$("$rkc" explain $(cat "$args") 2>&1; echo "exit $?")
	if [ -n "$RKC_UPDATE" ]; then
		printf '%s\n' "$got" >"$want"
	elif ! printf '%s\n' "$got" | diff -u "$want" - >&2; then
		echo "FAIL: rkc explain $(cat "$args")" >&2
		fail=1
	fi
done
exit $fail
