#!/bin/sh
# The Python package as a user gets it: a fresh virtual environment in the build tree, `pip
# install ./python` (offline: its build backend needs nothing), then python/tests/test_rkc.py
# from outside the source tree against the stand-in driver, with the cache in the build tree.
# The venv sees the system's packages, so torch is tested where torch is installed. $1 a scratch
# folder, $2 librkc.so, $3 the stand-in driver, $4 "--torch" for the torch tests alone (exit 77,
# not run, where torch does not import); run from the source root.
set -e
if [ "$4" = --torch ] && ! python3 -c 'import torch' 2>/dev/null; then
	echo "NOT RUN: the torch tests (torch is not importable here)"
	exit 77
fi
dir=$1/python$4
rm -rf "$dir" && mkdir -p "$dir/cache"
python3 -m venv --system-site-packages "$dir/venv" || {
	echo "FAIL: python3 -m venv (Debian: apt-get install python3-venv)"
	exit 1
}
RKC_LIB=$2 "$dir/venv/bin/python" -m pip install --no-index --no-cache-dir -q ./python
src=$(pwd)
cd "$dir"
# the installed copy, with its own librkc.so, not the source tree's
"$dir/venv/bin/python" -c 'import rkc, os; assert os.path.exists(os.path.join(os.path.dirname(rkc.__file__), "librkc.so")), rkc.__file__'
: >"$dir/launches"
RKC_SOURCE=$src RKC_CACHE_DIR=$dir/cache RKC_LIBCUDA=$3 RKC_FAKECUDA_LOG=$dir/launches \
	"$dir/venv/bin/python" "$src/python/tests/test_rkc.py" $4
