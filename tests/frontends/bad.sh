#!/bin/sh
# Every malformed kernel in tests/frontends/bad/ gets exactly its expected diagnostic and exit 1.
rkc=$1
fail=0 n=0
for f in tests/frontends/bad/*.rk tests/frontends/bad/*.json; do
	n=$((n + 1))
	want=${f%.*}.err
	got=$("$rkc" check "$f" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -ne 1 ] || [ "$got" != "$(cat "$want")" ]; then
		echo "FAIL $f (exit $rc)"
		echo "  want: $(cat "$want")"
		echo "  got:  $got"
		fail=$((fail + 1))
	fi
done
echo "$((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]
