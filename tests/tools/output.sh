#!/bin/sh
# rkc compile -o: a special file is written in place, a link and a file's mode are kept, an input
# is never written over, and the PTX and its manifest change together or not at all.
rkc=$1
t=$(mktemp -d "$2/output.XXXXXX") || exit 1
trap 'chattr -i "$t/i.json" 2>"$t/chattr.err"; rm -rf "$t"' EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}
c() { "$rkc" compile "$@" --shape 64x4096 --dtype bf16 2>"$t/err"; }
cp testdata/kernels/sum.rk "$t/k.rk"

# A FIFO stays a FIFO and gets the PTX; like -o -, a special file gets no manifest.
mkfifo "$t/f"
cat "$t/f" >"$t/got" &
reader=$!
c "$t/k.rk" -o "$t/f" || fail "-o FIFO: $(cat "$t/err")"
[ -p "$t/f" ] || { kill $reader; fail "-o FIFO replaced the FIFO"; }
wait $reader
grep -q '^.visible .entry sum(' "$t/got" || fail "-o FIFO: no PTX through it"
[ ! -e "$t/f.json" ] || fail "-o FIFO wrote a manifest"
# /proc/self/fd/3 (as /dev/stdout) names an open file: written through, no temporary beside it
c "$t/k.rk" -o /proc/self/fd/3 3>"$t/fd3" || fail "-o /proc/self/fd/3: $(cat "$t/err")"
grep -q '^.visible .entry sum(' "$t/fd3" || fail "-o /proc/self/fd/3: no PTX"

# A symbolic link stays; its target is replaced, keeping its mode. So is a plain file's.
mkdir "$t/sub"
echo old >"$t/sub/target.ptx"
chmod 640 "$t/sub/target.ptx"
ln -s sub/target.ptx "$t/s.ptx"
c "$t/k.rk" -o "$t/s.ptx" || fail "-o link: $(cat "$t/err")"
[ -L "$t/s.ptx" ] || fail "-o link replaced the link"
grep -q '^.visible .entry sum(' "$t/sub/target.ptx" || fail "-o link: target not written"
[ "$(stat -c %a "$t/sub/target.ptx")" = 640 ] || fail "-o link: target's mode not kept"
[ -s "$t/s.json" ] || fail "-o link: no manifest"
echo old >"$t/m.ptx"
chmod 600 "$t/m.ptx"
c "$t/k.rk" -o "$t/m.ptx" || fail "-o m.ptx: $(cat "$t/err")"
[ "$(stat -c %a "$t/m.ptx")" = 600 ] || fail "mode 600 not kept: $(stat -c %a "$t/m.ptx")"
ln -s new.ptx "$t/n.ptx"
c "$t/k.rk" -o "$t/n.ptx" || fail "-o dangling link: $(cat "$t/err")"
[ -L "$t/n.ptx" ] && [ -s "$t/new.ptx" ] || fail "-o dangling link: target not made"

# Never over an input, found by device and inode: the manifest of k.ptx is the input k.json;
# -o the input itself, a hard link to it, or what standard input reads.
"$rkc" print --json "$t/k.rk" >"$t/k.json" || fail "print --json"
cp "$t/k.json" "$t/k.json.orig"
cp "$t/k.rk" "$t/k.rk.orig"
if c "$t/k.json" -o "$t/k.ptx"; then fail "manifest over the input accepted"; fi
grep -q "not writing '$t/k.json': it is the input" "$t/err" || fail "message: $(cat "$t/err")"
grep -q "manifest" "$t/err" || fail "message does not say the manifest: $(cat "$t/err")"
cmp -s "$t/k.json" "$t/k.json.orig" || fail "the input k.json was overwritten"
[ ! -e "$t/k.ptx" ] || fail "k.ptx written without its manifest"
if c "$t/k.rk" -o "$t/k.rk"; then fail "-o the input accepted"; fi
ln "$t/k.rk" "$t/h.ptx"
if c "$t/k.rk" -o "$t/h.ptx"; then fail "-o a hard link of the input accepted"; fi
if c - -o "$t/k.rk" <"$t/k.rk"; then fail "-o the file on standard input accepted"; fi
grep -q "it is the input '-'" "$t/err" || fail "stdin message: $(cat "$t/err")"
cmp -s "$t/k.rk" "$t/k.rk.orig" || fail "the input k.rk was overwritten"

# Both files or neither: a manifest that cannot be written leaves no new PTX.
mkdir "$t/d.json"
if c "$t/k.rk" -o "$t/d.ptx"; then fail "a directory as the manifest accepted"; fi
grep -q "'$t/d.json': it is a directory" "$t/err" || fail "message: $(cat "$t/err")"
[ ! -e "$t/d.ptx" ] || fail "PTX written, manifest not"
# a long name: the temporaries must not be longer than the files (NAME_MAX 255)
long=$(printf '%0241d' 0)
c "$t/k.rk" -o "$t/$long.ptx" || fail "241-byte name: $(cat "$t/err")"
[ -s "$t/$long.ptx" ] && [ -s "$t/$long.json" ] || fail "241-byte name: a file is missing"
# a manifest that cannot be replaced (immutable, for root) puts the old PTX back
echo old >"$t/i.ptx"
echo old >"$t/i.json"
if chattr +i "$t/i.json" 2>"$t/chattr.err"; then
	if c "$t/k.rk" -o "$t/i.ptx"; then fail "immutable manifest accepted"; fi
	[ "$(cat "$t/i.ptx")" = old ] || fail "new PTX beside the old manifest"
	chattr -i "$t/i.json"
fi
[ -z "$(ls "$t" | grep tmp)" ] || fail "temporary files left: $(ls "$t" | grep tmp)"

# Concurrent compiles to one -o leave a matching pair (the manifest's warps are the PTX's).
for i in 1 2 3 4 5 6 7 8; do
	for w in 2 4 2; do
		"$rkc" compile testdata/kernels/layer_norm.rk --shape 64x4096 --dtype bf16 \
			--config persistent=0,r_block=1024,m_block=1,num_warps=$w -o "$t/r.ptx" &
	done
	wait
	n=$(sed -n 's/^.maxntid \([0-9]*\),.*/\1/p' "$t/r.ptx")
	grep -q "\"num_warps\": $((n / 32))," "$t/r.json" || fail "round $i: a mismatched pair"
done
echo ok
