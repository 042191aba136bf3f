#!/bin/sh
# What the reader takes: a UTF-8 byte order mark before a kernel, and input up to 64 MiB.
rkc=$1
fail() {
	echo "FAIL: $*"
	exit 1
}
want=$("$rkc" check testdata/kernels/sum.rk) || fail "check sum.rk"
got=$("$rkc" check tests/frontends/bom.rk 2>&1) || fail "byte order mark: $got"
[ "$got" = "$want" ] || fail "byte order mark: got '$got'"

# 64 MiB of blanks is read (and is no kernel); a byte more is refused, as endless input would be.
mib=$((64 << 20))
err=$(head -c $mib /dev/zero | tr '\0' ' ' | "$rkc" check - 2>&1)
case $err in
*"expected 'kernel NAME'"*) ;;
*) fail "64 MiB: '$err'" ;;
esac
err=$(head -c $((mib + 1)) /dev/zero | tr '\0' ' ' | "$rkc" check - 2>&1)
[ "$err" = "error: '-' is over 64 MiB, the most rkc reads" ] || fail "64 MiB + 1: '$err'"
echo ok
