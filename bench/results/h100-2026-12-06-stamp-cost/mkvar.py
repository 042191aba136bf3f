# Variants of a stamped PTX, to find what the stamps cost: clk (timer read from %clock64),
# sink (the timer read kept, its value stored to a shared word, no global red), const (no timer
# read, the red kept with a constant), tid0 (thread 0 alone stamps), cta (the red relaxed at CTA
# scope); on the build of branch stamp-warp0, where thread 0 alone stamps (call 4): st (a plain
# global store, not a red) and tsink (the shared store of sink).
import re, shutil, sys
src, base = sys.argv[1], sys.argv[2]
s = open(src).read()
pat = re.compile(r"\{ \.reg \.pred p; \.reg \.u64 t; setp\.ne\.b32 p, (%r\d+), 0; mov\.u64 t, 0; @p mov\.u64 t, %globaltimer; @p red\.global\.max\.u64 \[(%rd\d+)\], t; \}")
assert pat.search(s)
v = {
 "clk": pat.sub(lambda m: m.group(0).replace("%globaltimer", "%clock64"), s),
 "sink": pat.sub(lambda m: "{ .reg .pred p; .reg .u64 t; setp.ne.b32 p, %s, 0; mov.u64 t, 0; @p mov.u64 t, %%globaltimer; @p st.volatile.shared.u64 [stamp_sink], t; }" % m.group(1), s).replace(".extern .shared .align 16 .b8 rows_smem[];", ".shared .align 8 .u64 stamp_sink;\n.extern .shared .align 16 .b8 rows_smem[];"),
 "const": pat.sub(lambda m: m.group(0).replace("@p mov.u64 t, %globaltimer;", "@p mov.u64 t, 7;"), s),
 # thread 0 alone stamps (the warps' max lost): the red count over the warps a CTA
 "tid0": pat.sub(lambda m: m.group(0).replace("setp.ne.b32 p, %s, 0;" % m.group(1), ".reg .b32 tx; mov.u32 tx, %tid.x; setp.eq.b32 p, tx, 0;"), s),
 # the red relaxed at CTA scope
 "cta": pat.sub(lambda m: m.group(0).replace("@p red.global.max.u64", "@p red.relaxed.cta.global.max.u64"), s),
 "st": pat.sub(lambda m: m.group(0).replace("@p red.global.max.u64", "@p st.global.u64"), s),
}
v["tsink"] = v["sink"]
for k, t in v.items():
    open(f"{base}-{k}.ptx", "w").write(t)
    shutil.copy(src[:-4] + ".json", f"{base}-{k}.json")
