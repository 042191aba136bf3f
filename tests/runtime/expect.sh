# Sourced by the runtime script tests: `expect STATUS TEXT... -- ARGS...` runs "$rkc" ARGS and
# passes when it exits STATUS and prints each TEXT; `fail WHAT` counts a failure and shows $out.
passed=0 failed=0

fail() {
	failed=$((failed + 1))
	printf 'FAIL: %s\n  output:\n%s\n' "$1" "$out"
}

expect() {
	want=$1
	shift
	texts=""
	while [ "$1" != "--" ]; do
		texts="$texts$1
"
		shift
	done
	shift
	out=$("$rkc" "$@" 2>&1)
	got=$?
	ok=1
	[ "$got" = "$want" ] || ok=0
	while IFS= read -r t; do
		[ -z "$t" ] || printf '%s\n' "$out" | grep -qF -- "$t" || { ok=0; echo "missing: $t"; }
	done <<END
$texts
END
	if [ $ok = 1 ]; then
		passed=$((passed + 1))
	else
		fail "rkc $* (status $got, want $want)"
	fi
}
