#!/bin/sh
# Failures say what failed: a write to standard output that fails, a ptxas killed by a signal, a
# tune without a driver.
rkc=$1
t=$(mktemp -d "$2/errors.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}

# Standard output to a file that may not grow (ulimit -f 0: EFBIG, as on a full disk): exit 1 and
# say so. The messages come back through a pipe, which the limit does not touch.
for cmd in "print testdata/kernels/sum.rk" "check testdata/kernels/sum.rk" \
	"explain testdata/kernels/sum.rk --shape 8x4096 --dtype bf16" \
	"golden diff testdata/golden/rkc-sm_80.json testdata/golden/rkc-sm_90.json"; do
	# shellcheck disable=SC2086 # $cmd is the command and its arguments
	err=$( (
		trap '' XFSZ
		ulimit -f 0
		"$rkc" $cmd >"$t/out"
	) 2>&1)
	rc=$?
	[ $rc -eq 1 ] || fail "rkc $cmd to a full file: exit $rc"
	case $err in
	*"cannot write standard output"*) ;;
	*) fail "rkc $cmd to a full file: message '$err'" ;;
	esac
done

# A ptxas killed by a signal is named as such (its temporary file goes under TMPDIR).
mkdir "$t/bin"
printf '#!/bin/sh\nkill -KILL $$\n' >"$t/bin/ptxas"
chmod +x "$t/bin/ptxas"
if PATH="$t/bin:$PATH" TMPDIR="$t" "$rkc" compile testdata/kernels/sum.rk --shape 8x4096 \
	--dtype bf16 --ptxas -o "$t/k.ptx" 2>"$t/err"; then
	fail "a killed ptxas accepted"
fi
grep -q "ptxas was killed by signal 9" "$t/err" || fail "killed ptxas: $(cat "$t/err")"

# rkc tune without a driver names itself.
if RKC_LIBCUDA="$t/no-libcuda.so" "$rkc" tune testdata/kernels/sum.rk --shape 8x4096 \
	--dtype bf16 >"$t/out" 2>"$t/err"; then
	fail "tune without a driver succeeded"
fi
grep -q "^rkc tune: error: no CUDA driver" "$t/err" || fail "tune message: $(cat "$t/err")"
! grep -q "rkc run" "$t/err" || fail "tune message names rkc run: $(cat "$t/err")"
echo ok
