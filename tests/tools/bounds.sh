#!/bin/sh
# Bounds: shapes, --config values and kernel sizes outside what rkc supports are one exact error
# each; inside, the largest shapes and kernels run clean (no sanitizer report, no hang); a param
# default of inf survives text -> JSON -> text; an arch without target data reports the real error.
# $1 is the rkc binary; run from the source root. Writes no files.
rkc=$1
k=testdata/kernels/softmax.rk
ln=testdata/kernels/layer_norm.rk
fail=0

# check STATUS WANT ARGS...: rkc ARGS, with $input (if set) on stdin, exits STATUS within 60 s
# and prints exactly WANT (stdout and stderr together).
input=
check() {
	want_rc=$1 want=$2
	shift 2
	if [ -n "$input" ]; then
		got=$(printf '%s\n' "$input" | timeout 60 "$rkc" "$@" 2>&1)
	else
		got=$(timeout 60 "$rkc" "$@" 2>&1 </dev/null)
	fi
	rc=$?
	if [ "$rc" != "$want_rc" ] || [ "$got" != "$want" ]; then
		printf 'FAIL: rkc %s\n  want (exit %s): %s\n  got  (exit %s): %s\n' "$*" "$want_rc" \
			"$want" "$rc" "$got"
		fail=1
	fi
}

# clean ARGS...: rkc ARGS, with $input (if set) on stdin, exits 0 within 60 s and writes
# nothing to stderr.
clean() {
	if [ -n "$input" ]; then
		err=$(printf '%s\n' "$input" | timeout 60 "$rkc" "$@" 2>&1 >/dev/null)
	else
		err=$(timeout 60 "$rkc" "$@" 2>&1 >/dev/null </dev/null)
	fi
	rc=$?
	if [ "$rc" != 0 ] || [ -n "$err" ]; then
		printf 'FAIL: rkc %s\n  exit %s, stderr:\n%s\n' "$*" "$rc" "$err"
		fail=1
	fi
}

# Shapes: one message from shape_parse for every command.
rule='a shape is MxN or BxLxN (M = B*L rows) in digits, with 1 <= M <= 2^31-1, 1 <= N <= 2^40 and M*N <= 2^60'
syntax="expected digits (no spaces or signs) around each 'x'"
for s in ' 5x6' '5x 6' '+5x+6' '5x6 ' '64x' 'x64' '5x-6' '5.0x6'; do
	check 2 "rkc explain: error: bad shape '$s': $syntax; $rule" explain $k --shape "$s" --dtype bf16
done
check 2 "rkc explain: error: bad shape '5': expected at least two dimensions; $rule" \
	explain $k --shape 5 --dtype bf16
check 2 "rkc explain: error: bad shape '2x3x4x5': more than three dimensions; $rule" \
	explain $k --shape 2x3x4x5 --dtype bf16
check 2 "rkc explain: error: bad shape '4096x0': M and N must be at least 1; $rule" \
	explain $k --shape 4096x0 --dtype bf16
check 2 "rkc explain: error: bad shape '0x99999999999x5': M and N must be at least 1; $rule" \
	explain $k --shape 0x99999999999x5 --dtype bf16
check 2 "rkc explain: error: bad shape '5x4611686018427387905': N is over 2^40; $rule" \
	explain $k --shape 5x4611686018427387905 --dtype bf16
check 2 "rkc explain: error: bad shape '4294967296x4294967297x5': M is over 2^31-1; $rule" \
	explain $k --shape 4294967296x4294967297x5 --dtype bf16
check 2 "rkc explain: error: bad shape '99999999999999999999x5': M is over 2^31-1; $rule" \
	explain $k --shape 99999999999999999999x5 --dtype bf16
check 2 "rkc explain: error: bad shape '2147483648x1': M is over 2^31-1; $rule" \
	explain $k --shape 2147483648x1 --dtype bf16
check 2 "rkc explain: error: bad shape '1x1099511627777': N is over 2^40; $rule" \
	explain $k --shape 1x1099511627777 --dtype bf16
check 2 "rkc explain: error: bad shape '1073741825x1073741824': M*N is over 2^60; $rule" \
	explain $k --shape 1073741825x1073741824 --dtype bf16
check 2 "rkc compile: error: bad shape '5x2305843009213693952': N is over 2^40; $rule" \
	compile $k --shape 5x2305843009213693952 --dtype bf16 --policy helion2828 -o -
check 2 "rkc tune: error: bad shape '5x2305843009213693952': N is over 2^40; $rule" \
	tune $k --shape 5x2305843009213693952 --dtype bf16
check 2 "rkc run: error: bad shape '+5x+6': $syntax; $rule" run $k --shape +5x+6 --dtype bf16

# The edges of the range: every kernel, both policies, without a sanitizer report. A kernel with
# a sum over rows keeps the partials of rows this wide in the workspace (docs/codegen.md, "Sums
# over rows"); helion2828 has no rule for it: one exact error.
for f in testdata/kernels/*.rk; do
	for s in 2147483647x1 1x1099511627776 1048576x1099511627776 2147483647x536870912 \
		1024x1024x1048576; do
		clean explain "$f" --shape $s --dtype fp32
		if ! grep -q ' colsum ' "$f"; then
			clean explain "$f" --shape $s --dtype bf16 --policy helion2828
			continue
		fi
		check 1 "rkc explain: error: the helion2828 policy (Helion's seed rules) has no rule for a sum over rows (colsum); use --policy rkc" \
			explain "$f" --shape $s --dtype bf16 --policy helion2828
	done
done
# tune ranks candidates (helion2828's among them) before it looks for a GPU
export RKC_LIBCUDA=/nonexistent/libcuda.so.1
check 1 "rkc tune: error: no CUDA driver: /nonexistent/libcuda.so.1: cannot open shared object file: No such file or directory (this command needs an NVIDIA GPU and its driver; RKC_LIBCUDA names the driver library)" \
	tune $k --shape 1048576x1099511627776 --dtype bf16
unset RKC_LIBCUDA

# --config: syntax and ranges are "bad --config" usage errors, before any kernel is read.
check 2 "rkc explain: error: bad --config 'num_warps=4294967300': num_warps takes an integer from 1 to 32, not '4294967300'" \
	explain $k --shape 64x4096 --dtype bf16 --config num_warps=4294967300
check 2 "rkc explain: error: bad --config 'split=99999999999': split takes an integer from 1 to 65536, not '99999999999'" \
	explain $k --shape 64x4096 --dtype bf16 --config split=99999999999
check 2 "rkc explain: error: bad --config 'r_block=99999999999999999999': r_block takes an integer from 1 to 2^40, not '99999999999999999999'" \
	explain $k --shape 64x4096 --dtype bf16 --config r_block=99999999999999999999
check 2 "rkc explain: error: bad --config 'persistent=5': persistent takes 0 or 1, not '5'" \
	explain $k --shape 64x4096 --dtype bf16 --config persistent=5
check 2 "rkc explain: error: bad --config 'min_ctas=0': min_ctas takes an integer from 1 to 32, not '0'" \
	explain $k --shape 64x4096 --dtype bf16 --config min_ctas=0
check 2 "rkc explain: error: bad --config 'min_ctas=-1': min_ctas takes an integer from 1 to 32, not '-1'" \
	explain $k --shape 64x4096 --dtype bf16 --config min_ctas=-1
check 2 "rkc explain: error: bad --config 'evict=2': evict takes 0 or 1, not '2'" \
	explain $k --shape 64x4096 --dtype bf16 --config evict=2
check 2 "rkc explain: error: bad --config 'vec=+8': vec takes an integer from 1 to 16, not '+8'" \
	explain $k --shape 64x4096 --dtype bf16 --config vec=+8
check 2 "rkc compile: error: bad --config 'r_block=': r_block takes an integer from 1 to 2^40, not ''" \
	compile $k --shape 64x4096 --dtype bf16 --config r_block= -o -
check 2 "rkc compile: error: bad --config 'vec=8x': vec takes an integer from 1 to 16, not '8x'" \
	compile $k --shape 64x4096 --dtype bf16 --config vec=8x -o -
check 2 "rkc compile: error: bad --config 'foo': expected key=value, not 'foo'" \
	compile $k --shape 64x4096 --dtype bf16 --config foo -o -
check 2 "rkc compile: error: bad --config 'vec=8,,m_block=1': expected key=value, not ''" \
	compile $k --shape 64x4096 --dtype bf16 --config vec=8,,m_block=1 -o -
check 2 "rkc compile: error: bad --config 'vec=8,': expected key=value after the last ','" \
	compile $k --shape 64x4096 --dtype bf16 --config vec=8, -o -
check 2 "rkc compile: error: bad --config 'warps=8': unknown key 'warps' (known: persistent, r_block, m_block, num_warps, vec, split, evict, min_ctas, smem, cluster, grid, dynamic, ahead, coop, stash, steps, colpass)" \
	compile $k --shape 64x4096 --dtype bf16 --config warps=8 -o -
check 2 "rkc run: error: bad --config 'vec=8x': vec takes an integer from 1 to 16, not '8x'" \
	run $k --shape 64x4096 --dtype bf16 --config vec=8x

# An arch codegen takes but without target data (chosen with sm_80's): the real error, not the
# missing target file.
check 1 "rkc compile: error: infeasible --config 'split=2': split=2: row splitting needs one pass of plain reductions and no [N] or [M,N] output; this kernel has a full-width ([N] or [M,N]) output" \
	compile $ln --shape 64x4096 --dtype bf16 --arch sm_86 --config split=2 -o -
check 1 "rkc compile: error: infeasible --config 'r_block=3': r_block=3: must be a multiple of threads per row * vec = 512 * 8 = 4096" \
	compile $ln --shape 64x4096 --dtype bf16 --arch sm_89 --config r_block=3 -o -

# inf and -inf defaults: a bare inf parses, and -inf goes through JSON as the string "-inf".
inf_text='kernel clip

in    x: T[M,N]
out   y: T[M,N]
param lo = -inf
param hi = inf

%x = load x
%a = max %x, lo
%y = min %a, hi
store y, %y'
input=$inf_text
check 0 "$inf_text" check -
json=$(printf '%s\n' "$inf_text" | "$rkc" print --json -)
printf '%s\n' "$json" | grep -q '"default": "-inf"' || {
	echo "FAIL: -inf is not the JSON string \"-inf\": $json"
	fail=1
}
input=$json
check 0 "$inf_text" print -
check 0 "$json" print --json -
input=

# Size limits: 512 statements and 64 parameters pass; one more is an error at the line past
# the limit, and a 100000-statement file fails there as fast.
chain() { # a kernel of $1 statements: load, adds, sum, store
	awk -v n="$1" 'BEGIN {
		print "kernel chain\nin x: T[M,N]\nout y: f32[M]\n%v0 = load x"
		for (i = 1; i < n - 2; i++)
			printf "%%v%d = add %%v%d, 1\n", i, i - 1
		printf "%%s = sum %%v%d\nstore y, %%s\n", n - 3
	}'
}
reductions() { # a kernel of $1 statements, each reduction depending on the one before
	awk -v n="$1" 'BEGIN {
		print "kernel reductions\nin x: T[M,N]\nout y: f32[M]\n%x = load x\n%r0 = sum %x"
		for (i = 0; 2 * i + 4 < n; i++)
			printf "%%t%d = add %%x, %%r%d\n%%r%d = max %%t%d\n", i, i, i + 1, i
		printf "store y, %%r%d\n", i
	}'
}
inputs() { # a kernel of $1 parameters: $1 - 1 inputs, summed, and one output
	awk -v n="$1" 'BEGIN {
		print "kernel many"
		for (i = 0; i < n - 1; i++)
			printf "in x%d: T[M,N]\n", i
		print "out y: f32[M]"
		for (i = 0; i < n - 1; i++)
			printf "%%x%d = load x%d\n", i, i
		print "%a1 = add %x0, %x1"
		for (i = 2; i < n - 1; i++)
			printf "%%a%d = add %%a%d, %%x%d\n", i, i - 1, i
		printf "%%s = sum %%a%d\nstore y, %%s\n", n - 2
	}'
}
input=$(chain 512)
check 0 "ok  chain                     1 inputs  1 outputs  512 ops  1 reductions
1 of 1 kernels checked" check --summary -
clean explain - --shape 4096x4096 --dtype bf16
clean explain - --shape 8x131072 --dtype bf16 --policy helion2828
clean compile - --shape 4096x4096 --dtype bf16 -o -
input=$(reductions 512)
check 0 "ok  reductions                1 inputs  1 outputs  511 ops  255 reductions
1 of 1 kernels checked" check --summary -
clean explain - --shape 4096x4096 --dtype bf16
clean explain - --shape 8x131072 --dtype bf16 --policy helion2828
limit='error: too many instructions: a kernel has at most 512 statements (docs/ir.md, Limits)'
input=$(chain 513)
check 1 "<stdin>:516:1: $limit" check -
input=$(chain 100000)
check 1 "<stdin>:516:1: $limit" check -
input=$(inputs 64)
check 0 "ok  many                     63 inputs  1 outputs  127 ops  1 reductions
1 of 1 kernels checked" check --summary -
input=$(inputs 65)
check 1 "<stdin>:66:5: error: too many parameters: a kernel has at most 64 in, out and param declarations (docs/ir.md, Limits)" \
	check -
input=

[ $fail = 0 ] && echo ok
exit $fail
