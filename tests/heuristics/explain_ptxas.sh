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
echo ok
