#!/bin/sh
# rkc compile's outputs: -o k.cubin is ptxas's ELF, several --shape give a pair each, and --cache
# reads back what it wrote, never writes over a file it did not make, and survives an unusable
# directory. $1 rkc, $2 a scratch folder under the build tree (the cache lives there, never in
# the home directory); run from the source root.
rkc=$1
t=$2/compile_out
rm -rf "$t" && mkdir -p "$t" || exit 1
export RKC_CACHE_DIR="$t/cache" XDG_CACHE_HOME="$t/xdg" HOME="$t/home"
k=testdata/kernels/rms_norm.rk
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() {
	failed=$((failed + 1))
	printf 'FAIL: %s\n' "$1"
}
c() { "$rkc" compile $k --dtype bf16 "$@" 2>"$t/err"; }

# a cubin is an ELF for the arch, and its manifest is beside it
c --shape 64x4096 -o "$t/a.cubin" && [ "$(head -c 4 "$t/a.cubin" | od -An -c | tr -d ' ')" = '177ELF' ] &&
	grep -q '"manifest_version": 3' "$t/a.json" && ok || fail "-o a.cubin: $(cat "$t/err")"
grep -q '^\.version' "$t/a.cubin" && fail "a.cubin holds PTX text"
# several shapes: a pair each, named by the flattened shape
c --shape 64x4096 --shape 2x8x1024 -o "$t/m.ptx" && [ -s "$t/m.64x4096.ptx" ] &&
	grep -q '"M": 16,' "$t/m.16x1024.json" && grep -q '"N": 1024,' "$t/m.16x1024.json" &&
	[ ! -e "$t/m.ptx" ] && ok || fail "two shapes: $(ls "$t") $(cat "$t/err")"
c --shape 64x4096 --shape 8x1024 -o - >/dev/null
[ $? = 2 ] && grep -q "rkc compile: error: -o - takes one --shape (2 given)" "$t/err" && ok ||
	fail "-o - with two shapes: $(cat "$t/err")"
# a bad second shape is a usage error before anything is written
c --shape 64x4096 --shape 8x -o "$t/n.ptx"
[ $? = 2 ] && [ ! -e "$t/n.64x4096.ptx" ] && ok || fail "a bad second shape"

# the cache: nothing in it without --cache; one entry after; the same files from it
c --shape 64x4096 -o "$t/p.ptx" && [ ! -e "$t/cache" ] && ok || fail "cache used without --cache"
c --shape 64x4096 -o "$t/c1.ptx" --cache && [ "$(ls "$t/cache" | wc -l)" = 1 ] && ok ||
	fail "no cache entry: $(cat "$t/err")"
entry=$(ls "$t/cache"/*.rkc)
c --shape 64x4096 -o "$t/c2.ptx" --cache && cmp -s "$t/c1.ptx" "$t/c2.ptx" &&
	cmp -s "$t/c1.json" "$t/c2.json" && cmp -s "$t/c1.ptx" "$t/p.ptx" && ok || fail "cache hit differs"
# a hit is read, not compiled: change the entry (same length) and see the change come back
sed -i 's/"policy": "rkc"/"policy": "RKC"/' "$entry"
c --shape 64x4096 -o "$t/c3.ptx" --cache && grep -q '"policy": "RKC"' "$t/c3.json" && ok ||
	fail "the second compile did not read the cache"
# another key (dtype, forced knobs, kernel text) misses
c --shape 64x4096 -o "$t/c4.ptx" --cache --config num_warps=4 && [ "$(ls "$t/cache" | wc -l)" = 2 ] &&
	ok || fail "--config did not change the key"
sed 's/^kernel rms_norm/kernel rms_norm\n# a comment/' $k >"$t/same.rk"
"$rkc" compile "$t/same.rk" --dtype bf16 --shape 64x4096 -o "$t/c5.ptx" --cache 2>"$t/err" &&
	[ "$(ls "$t/cache" | wc -l)" = 2 ] && ok || fail "a comment changed the key (it hashes the canonical text)"
# --regions is part of the key: a stamped compile is not the plain one's entry, nor the reverse
c --shape 64x4096 -o "$t/r1.ptx" --cache --regions && grep -q globaltimer "$t/r1.ptx" &&
	grep -q '"regions": {' "$t/r1.json" && [ "$(ls "$t/cache" | wc -l)" = 3 ] && ok ||
	fail "--regions --cache read the plain entry: $(cat "$t/err")"
c --shape 64x4096 -o "$t/r2.ptx" --cache && cmp -s "$t/r2.ptx" "$t/p.ptx" && ok ||
	fail "the plain compile read the stamped entry"
# the key names the compiler's sources (cmake/source_hash.cmake): an entry another build wrote,
# its source line other than this build's, is a miss (compiled, not read; the entry left alone)
grep -Eq '^source [0-9a-f]{16}$' "$entry" && ok || fail "no source fingerprint in the entry's key"
sed -i 's/^source ................$/source 0123456789abcdef/' "$entry"
c --shape 64x4096 -o "$t/s1.ptx" --cache && ! grep -q '"policy": "RKC"' "$t/s1.json" &&
	cmp -s "$t/s1.ptx" "$t/p.ptx" && grep -q '^source 0123456789abcdef$' "$entry" && ok ||
	fail "an entry of other sources was read: $(cat "$t/err")"
# a file the cache did not write is never written over, and the compile still succeeds
echo "not a cache entry" >"$entry"
c --shape 64x4096 -o "$t/c6.ptx" --cache && cmp -s "$t/c6.ptx" "$t/c1.ptx" &&
	[ "$(cat "$entry")" = "not a cache entry" ] && ok || fail "a foreign file at an entry's name"
[ -z "$(ls -a "$t/cache" | grep '^\.tmp')" ] && ok || fail "temporaries left in the cache"
# the default directory: XDG_CACHE_HOME/rkc, else HOME/.cache/rkc
RKC_CACHE_DIR= c --shape 8x1024 -o "$t/x.ptx" --cache && [ "$(ls "$t/xdg/rkc" | wc -l)" = 1 ] && ok ||
	fail "XDG_CACHE_HOME/rkc"
RKC_CACHE_DIR= XDG_CACHE_HOME= c --shape 8x1024 -o "$t/h.ptx" --cache &&
	[ "$(ls "$t/home/.cache/rkc" | wc -l)" = 1 ] && ok || fail "HOME/.cache/rkc"
# an unusable directory: a warning, and the output all the same
: >"$t/file"
RKC_CACHE_DIR="$t/file/sub" c --shape 8x1024 -o "$t/w.ptx" --cache && [ -s "$t/w.ptx" ] &&
	grep -q "rkc compile: warning: cache: cannot make the cache directory" "$t/err" && ok ||
	fail "unusable cache dir: $(cat "$t/err")"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
