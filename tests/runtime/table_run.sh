#!/bin/sh
# bench/table_run.sh, `make run`'s second half: with no GPU (an nvidia-smi that fails, no driver)
# one line and exit 0; with the stand-in driver (whose launches write nothing) the table's kernel
# runs, fails its check and the script says so (exit 1).
# $1 is the rkc binary, $2 the stand-in driver library; run from the source root.
rkc=$1
fake=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
printf '#!/bin/sh\nexit 1\n' >"$t/nvidia-smi"
chmod +x "$t/nvidia-smi"
failed=0
out=$(PATH="$t:$PATH" RKC_LIBCUDA="$t/none.so" sh bench/table_run.sh "$rkc" 2>&1)
rc=$?
if [ $rc != 0 ] || [ "$out" != "no GPU found (nvidia-smi, rkc run): the table's kernels were not run" ]; then
	echo "FAIL: no GPU: status $rc, output:"
	echo "$out"
	failed=1
fi
out=$(PATH="$t:$PATH" RKC_LIBCUDA="$fake" KERNELS=sum sh bench/table_run.sh "$rkc" 2>&1)
rc=$?
if [ $rc != 1 ] || ! printf '%s\n' "$out" | grep -q '^sum  *4096x10240  *FAIL  *10.00 ' ||
	! printf '%s\n' "$out" | grep -q '^0 of 1 kernels checked ok$'; then
	echo "FAIL: the stand-in driver: status $rc, output:"
	echo "$out"
	failed=1
fi
[ $failed = 0 ] && echo "table_run: 2 passed"
[ $failed = 0 ]
