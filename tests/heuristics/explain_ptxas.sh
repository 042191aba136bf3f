#!/bin/sh
# rkc explain --ptxas: the assembler's registers and spills beside the model's, the CTAs an SM
# they allow, the same count rkc compile --ptxas reports, and a clear error when ptxas fails.
# $1 is the rkc binary; run from the source root.
rkc=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ln="testdata/kernels/layer_norm.rk --shape 64x4096 --dtype bf16"

# shellcheck disable=SC2086 # $ln is words
$rkc explain $ln --ptxas >"$t/text" || fail "explain --ptxas"
grep -q '^ptxas sm_90$' "$t/text" || fail "no ptxas section: $(cat "$t/text")"
grep -Eq '^  [0-9]+ regs/thread, (no spill|[0-9]+ bytes of spill stores and [0-9]+ of spill loads): [0-9]+ CTAs? an SM \((threads|registers|the CTA cap|shared memory)\); the model: [0-9]+ regs, [0-9]+ CTAs? an SM \((threads|registers|the CTA cap|shared memory)\)$' \
	"$t/text" || fail "ptxas line: $(grep -A1 '^ptxas' "$t/text")"
# shellcheck disable=SC2086
$rkc explain $ln >"$t/plain" || fail "explain"
grep -v -e '^ptxas sm_90$' -e 'regs/thread, .* an SM' "$t/text" | cat -s >"$t/rest"
cat -s "$t/plain" | cmp -s - "$t/rest" || fail "--ptxas changed the rest of explain"

# the JSON's registers are those rkc compile --ptxas reports for the same PTX
# shellcheck disable=SC2086
$rkc explain $ln --ptxas --json >"$t/json" || fail "explain --ptxas --json"
# shellcheck disable=SC2086
$rkc compile $ln --ptxas -o "$t/k.ptx" >"$t/report" || fail "compile --ptxas"
regs=$(sed -n 's/^ptxas sm_90 layer_norm: \([0-9]*\) registers.*/\1/p' "$t/report")
python3 - "$t/json" "$regs" <<'PY' || fail "explain --ptxas --json: $(cat "$t/json")"
import json, sys
d = json.load(open(sys.argv[1]))
p = d["ptxas"]
assert p["regs"] == int(sys.argv[2]), (p["regs"], sys.argv[2])
assert 1 <= p["ctas_per_sm"] <= 32 and p["limit"] in ("threads", "registers", "the CTA cap",
                                                      "shared memory")
assert {"spill_stores", "spill_loads", "stack"} <= set(p)
PY
# shellcheck disable=SC2086
$rkc explain $ln --json | grep -q '"ptxas"' && fail "a ptxas object without --ptxas"

# min_ctas caps ptxas at most a sixth under the predicted registers (SQUEEZE_MAX): swiglu_bwd's
# tiny rows, capped at 32 of 40, spilled 28 bytes
sq="tests/heuristics/kernels/swiglu_bwd.rk --shape 262144x64 --dtype bf16"
# shellcheck disable=SC2086
$rkc compile $sq --ptxas -o "$t/sq.ptx" >"$t/sq" || fail "compile --ptxas: $sq"
grep -q ' 0 bytes spill stores' "$t/sq" || fail "the squeeze spills: $(cat "$t/sq")"

# a colsum added where its operand dies, before the value's store (analysis/order.c): after the
# stores and the row values, LLVM carried moe_aux's softmax across the stores' branches, and at
# the 128 registers of two CTAs an SM ptxas spilled 244 bytes
ma="tests/heuristics/kernels/moe_aux.rk --shape 4096x4096 --dtype bf16"
# shellcheck disable=SC2086
$rkc compile $ma --ptxas -o "$t/ma.ptx" >"$t/ma" || fail "compile --ptxas: $ma"
grep -q ' 0 bytes spill stores' "$t/ma" || fail "moe_aux spills: $(cat "$t/ma")"

# the spill guard (driver/driver.c): quant_err_cols fp32 4096x4096's pick, two CTAs an SM over a
# grid of 264, spills 148 bytes at the cap of 128 registers; at one CTA an SM (a grid of 132) it
# assembles without, and explain, the manifest and compile --ptxas agree
qe="tests/heuristics/kernels/quant_err_cols.rk --shape 4096x4096 --dtype fp32"
# shellcheck disable=SC2086
$rkc explain $qe --ptxas >"$t/qe" || fail "explain --ptxas: $qe"
grep -Eq '^  persistent .* min_ctas 1$' "$t/qe" || fail "the guard kept min_ctas: $(cat "$t/qe")"
grep -q '^  - min_ctas=1 grid=SMs x min_ctas (the spill guard, over min_ctas=2 above): ptxas spilled [0-9]* bytes' \
	"$t/qe" || fail "no guard reason: $(cat "$t/qe")"
grep -q ' regs/thread, no spill: 1 CTA an SM' "$t/qe" || fail "the guarded pick spills: $(cat "$t/qe")"
# shellcheck disable=SC2086
$rkc compile $qe --ptxas -o "$t/qe.ptx" >"$t/qe.rep" || fail "compile --ptxas: $qe"
grep -q ' 0 bytes spill stores' "$t/qe.rep" || fail "compile spills: $(cat "$t/qe.rep")"
python3 - "$t/qe.json" <<'PY' || fail "manifest of the guarded pick: $(cat "$t/qe.json")"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["config"]["min_ctas"] == 1 and m["config"]["grid"] == 132, m["config"]
assert m["grid"]["x"] == 132, m["grid"]
assert any("the spill guard" in r for r in m["reasons"]), m["reasons"]
PY
# a forced min_ctas is the caller's: no guard
# shellcheck disable=SC2086
$rkc explain $qe --config min_ctas=2 --ptxas >"$t/qf" || fail "explain --config min_ctas=2"
grep -Eq '^  persistent .* min_ctas 2$' "$t/qf" || fail "the guard moved a forced min_ctas: $(cat "$t/qf")"
grep -q 'spill guard' "$t/qf" && fail "a guard reason on a forced config: $(cat "$t/qf")"

# ptxas that fails: explain says why and exits 1, with nothing on stdout
mkdir "$t/bin"
printf '#!/bin/sh\necho "ptxas fatal   : no such arch" >&2\nexit 1\n' >"$t/bin/ptxas"
chmod +x "$t/bin/ptxas"
# shellcheck disable=SC2086
if PATH="$t/bin:$PATH" TMPDIR="$t" $rkc explain $ln --ptxas >"$t/out" 2>"$t/err"; then
	fail "a failing ptxas accepted"
fi
grep -q '^rkc explain: .*ptxas' "$t/err" || fail "ptxas failure: $(cat "$t/err")"
[ ! -s "$t/out" ] || fail "explain printed with a failed ptxas: $(cat "$t/out")"
# ... and without a working ptxas the guard reads nothing: compile gives the policy's pick
# shellcheck disable=SC2086
PATH="$t/bin:$PATH" TMPDIR="$t" $rkc compile $qe -o "$t/qn.ptx" >/dev/null 2>"$t/qn.err" ||
	fail "compile with a failing ptxas: $(cat "$t/qn.err")"
grep -q '"min_ctas": *2' "$t/qn.json" || fail "min_ctas without ptxas: $(cat "$t/qn.json")"
echo ok
