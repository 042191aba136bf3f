/* Lowering: the LLVM builder helpers: constants, float ops, intrinsics, storage casts, ops, loops.
 */
#include <math.h>
#include <string.h>

#include "codegen/lower.h"

LLVMValueRef
cf(Lower *L, double v)
{
	return LLVMConstReal(L->f32, v);
}

LLVMValueRef
ci32(Lower *L, long long v)
{
	return LLVMConstInt(L->i32, (unsigned long long)v, 1);
}

LLVMValueRef
ci64(Lower *L, long long v)
{
	return LLVMConstInt(L->i64, (unsigned long long)v, 1);
}

/* Float arithmetic allows contraction, so ptxas sees fma.rn instead of separate mul.rn/add.rn. */
static LLVMValueRef
contract(LLVMValueRef v)
{
	if (LLVMIsAInstruction(v) && LLVMCanValueUseFastMathFlags(v))
		LLVMSetFastMathFlags(v, LLVMFastMathAllowContract);
	return v;
}

LLVMValueRef
ffadd(Lower *L, LLVMValueRef x, LLVMValueRef y)
{
	return contract(LLVMBuildFAdd(L->b, x, y, ""));
}

LLVMValueRef
ffsub(Lower *L, LLVMValueRef x, LLVMValueRef y)
{
	return contract(LLVMBuildFSub(L->b, x, y, ""));
}

LLVMValueRef
ffmul(Lower *L, LLVMValueRef x, LLVMValueRef y)
{
	return contract(LLVMBuildFMul(L->b, x, y, ""));
}

/* x*y + z rounded once (llvm.fma): where a rounding must not be left to contraction. */
LLVMValueRef
ffmadd(Lower *L, LLVMValueRef x, LLVMValueRef y, LLVMValueRef z)
{
	LLVMValueRef args[3] = {x, y, z};
	return intr(L, "llvm.fma", L->f32, args, 3);
}

LLVMValueRef
intr(Lower *L, const char *name, LLVMTypeRef ovl, LLVMValueRef *args, int nargs)
{
	unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
	if (id == 0) {
		if (!L->err)
			diag(L->d, "internal error: LLVM has no intrinsic %s", name);
		L->err = 1;
		return LLVMGetUndef(L->f32);
	}
	LLVMTypeRef tys[1] = {ovl};
	int n = ovl ? 1 : 0;
	LLVMTypeRef ft = LLVMIntrinsicGetType(L->cx, id, tys, n);
	LLVMValueRef f;
	if (L->host && !strncmp(name, "llvm.nvvm.", 10)) {
		/* the emulator provides "emu.X" for each llvm.nvvm.X, on the host's pointers
		 * (the intrinsic's may be in a GPU address space) */
		char host[128];
		snprintf(host, sizeof host, "emu.%s", name + 10);
		LLVMTypeRef at[8]; /* no intrinsic the lowering calls takes more */
		for (int i = 0; i < nargs && i < 8; i++)
			at[i] = LLVMTypeOf(args[i]);
		ft = LLVMFunctionType(LLVMGetReturnType(ft), at, (unsigned)nargs, 0);
		f = LLVMGetNamedFunction(L->mod, host);
		if (!f)
			f = LLVMAddFunction(L->mod, host, ft);
	} else {
		f = LLVMGetIntrinsicDeclaration(L->mod, id, tys, n);
	}
	return LLVMBuildCall2(L->b, ft, f, args, nargs, "");
}

static LLVMValueRef
intr1(Lower *L, const char *name, LLVMTypeRef ovl, LLVMValueRef x)
{
	return intr(L, name, ovl, &x, 1);
}

LLVMValueRef
fmax2(Lower *L, LLVMValueRef x, LLVMValueRef y)
{
	LLVMValueRef a[2] = {x, y};
	return intr(L, "llvm.maxnum", L->f32, a, 2);
}

LLVMValueRef
fmin2(Lower *L, LLVMValueRef x, LLVMValueRef y)
{
	LLVMValueRef a[2] = {x, y};
	return intr(L, "llvm.minnum", L->f32, a, 2);
}

/* exp(x) = 2^(x*log2 e): LLVM 19 cannot lower llvm.exp2 on NVPTX, the nvvm intrinsic can. The
 * .ftz form is one MUFU.EX2; without it ptxas adds a compare and two multiplies an element to
 * reach results under 2^-126, which .ftz flushes to 0 (docs/ir.md). */
#define LOG2E 1.4426950408889634

static LLVMValueRef
ex2(Lower *L, LLVMValueRef x)
{
	return intr1(L, "llvm.nvvm.ex2.approx.ftz.f", NULL, x);
}

LLVMValueRef
fexp(Lower *L, LLVMValueRef x)
{
	return ex2(L, ffmul(L, x, cf(L, LOG2E)));
}

/* exp(a - b) where b is the same across a row (a max): 2^(a*log2 e - b*log2 e), the product
 * b*log2 e made once, so an element costs one fma and one MUFU.EX2 where exp(a - b) costs an add,
 * a multiply and the MUFU.EX2, as softmax kernels everywhere fold it. The result differs from
 * exp(a - b) by the rounding of b*log2 e: a relative error under |b|*2^-23 (docs/ir.md). */
LLVMValueRef
fexp_sub(Lower *L, LLVMValueRef a, LLVMValueRef b)
{
	LLVMValueRef k = cf(L, LOG2E);
	return ex2(L, ffmadd(L, a, k, LLVMBuildFNeg(L->b, ffmul(L, b, k), "")));
}

/* Whether log's operand is known to be at least FLT_MIN (2^-126), no subnormal: the max of a
 * value and such a literal (max takes the literal over a NaN too). Then lg2.approx.ftz gives the
 * same result as lg2.approx, which on sm_80 to sm_100 ptxas wraps in a compare, a scaling multiply
 * and an add to take subnormal inputs (3 instructions more a log). jsd and fused_linear_jsd clamp
 * their log's operand so (docs/ir.md, "log"). */
static int
log_normal(const Lower *L, const Instr *in)
{
	if (in->args[0].kind != ARG_VAL)
		return 0;
	const Instr *d = &L->k->ins[L->k->vals[in->args[0].idx].def];
	for (int j = 0; d->op == OP_MAX && j < d->nargs; j++)
		if (d->args[j].kind == ARG_IMM && d->args[j].imm >= 0x1p-126)
			return 1;
	return 0;
}

static LLVMValueRef
flog(Lower *L, LLVMValueRef x, int normal)
{
	const char *lg2 = normal ? "llvm.nvvm.lg2.approx.ftz.f" : "llvm.nvvm.lg2.approx.f";
	return ffmul(L, intr1(L, lg2, NULL, x), cf(L, 0.6931471805599453));
}

/* 1/x to 1 ulp: divisions here are by row sums, counts and scales, never by denormals, and
 * div.rn's slow path costs registers (it made ptxas spill welford). */
LLVMValueRef
frcp(Lower *L, LLVMValueRef x)
{
	if (LLVMIsAConstantFP(x)) { /* rounded once, to nearest */
		LLVMBool lossy;
		double v = LLVMConstRealGetDouble(x, &lossy);
		if (v != 0)
			return cf(L, 1.0 / v);
	}
	return intr1(L, "llvm.nvvm.rcp.approx.ftz.f", NULL, x);
}

/* exp(m - M) as a rescale factor: exactly 1 when equal, so -inf - -inf never makes a NaN. */
LLVMValueRef
rescale(Lower *L, LLVMValueRef m, LLVMValueRef M)
{
	LLVMValueRef eq = LLVMBuildFCmp(L->b, LLVMRealOEQ, m, M, "");
	return LLVMBuildSelect(L->b, eq, cf(L, 1.0), fexp(L, ffsub(L, m, M)), "");
}

LLVMTypeRef
storage_type(Lower *L, Type t)
{
	switch (type_resolve(t, L->c->dtype)) {
	case TY_BF16:
		return LLVMBFloatTypeInContext(L->cx);
	case TY_F16:
		return LLVMHalfTypeInContext(L->cx);
	case TY_F32:
		return L->f32;
	case TY_I64:
		return L->i64;
	case TY_I32:
		return L->i32;
	default: /* i8, bool, and the fp8 types as their bytes */
		return L->i8;
	}
}

static int
is_f8(Type t)
{
	return t == TY_F8E4M3 || t == TY_F8E5M2;
}

/*
 * fp8 conversions in plain integer and f32 IR, the same on every arch and in the emulator (sm_80
 * has no fp8 cvt, and sm_90's cvt.rn.satfinite would leave the emulator testing another path).
 * f8_enc is f8_encode of analysis/ir.c on f32: |x| clamped to the largest finite value (so
 * infinities saturate), then below the smallest normal the count of subnormal steps rounded to
 * even, above it the f32 bits rebiased and rounded to even at the fp8 mantissa's last bit (a carry
 * into the exponent is the correct rounding up); a NaN gives 0x7f; the sign bit is x's.
 */
static LLVMValueRef
f8_enc(Lower *L, Type t, LLVMValueRef x)
{
	LLVMBuilderRef b = L->b;
	int e4 = t == TY_F8E4M3, mb = e4 ? 3 : 2, bias = e4 ? 7 : 15, sh = 23 - mb;
	LLVMValueRef bits = LLVMBuildBitCast(b, x, L->i32, "");
	LLVMValueRef sign =
	    LLVMBuildAnd(b, LLVMBuildLShr(b, bits, ci32(L, 24), ""), ci32(L, 0x80), "");
	LLVMValueRef a = fmin2(L, intr1(L, "llvm.fabs", L->f32, x), cf(L, e4 ? 448 : 57344));
	LLVMValueRef sub = LLVMBuildFMul(b, a, cf(L, ldexp(1, bias - 1 + mb)), "");
	sub = LLVMBuildFPToUI(b, intr1(L, "llvm.roundeven", L->f32, sub), L->i32, "");
	LLVMValueRef r = LLVMBuildSub(b, LLVMBuildBitCast(b, a, L->i32, ""),
				      ci32(L, (long long)(127 - bias) << 23), "");
	LLVMValueRef odd = LLVMBuildAnd(b, LLVMBuildLShr(b, r, ci32(L, sh), ""), ci32(L, 1), "");
	r = LLVMBuildAdd(b, r, LLVMBuildAdd(b, odd, ci32(L, (1 << (sh - 1)) - 1), ""), "");
	LLVMValueRef nor = LLVMBuildLShr(b, r, ci32(L, sh), "");
	LLVMValueRef tiny = LLVMBuildFCmp(b, LLVMRealOLT, a, cf(L, ldexp(1, 1 - bias)), "");
	LLVMValueRef code = LLVMBuildOr(b, LLVMBuildSelect(b, tiny, sub, nor, ""), sign, "");
	LLVMValueRef nan = LLVMBuildFCmp(b, LLVMRealUNO, x, x, "");
	code = LLVMBuildSelect(b, nan, LLVMBuildOr(b, sign, ci32(L, 0x7f), ""), code, "");
	return LLVMBuildTrunc(b, code, L->i8, "");
}

/* Whether fp8 values of type t are stored and read through the hardware's conversions: on an arch
 * with them (sm_90 and later), never in the emulator, which runs f8_enc and f8_dec. */
int
f8_hw(Lower *L, Type t)
{
	t = type_resolve(t, L->c->dtype);
	return is_f8(t) && !L->host && codegen_arch_info(L->c->arch)->fp8_cvt;
}

/*
 * Two f32 values to an fp8 pair, lo in the low byte: one cvt.rn.satfinite.e4m3x2.f32 (e5m2x2),
 * which puts its first operand in the upper byte. It rounds to nearest even and saturates finite
 * values and infinities to the largest finite value as f8_enc does, so the bytes are f8_enc's
 * (checked on the H100, bench/results/h100-2026-11-24-fp8.md); a NaN gives the hardware's NaN,
 * whose sign may differ. LLVM 19 has no intrinsic for it: inline PTX.
 */
static LLVMValueRef
f8_enc_pair_hw(Lower *L, Type t, LLVMValueRef lo, LLVMValueRef hi)
{
	const char *text = type_resolve(t, L->c->dtype) == TY_F8E4M3
			       ? "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;"
			       : "cvt.rn.satfinite.e5m2x2.f32 $0, $1, $2;";
	LLVMTypeRef i16 = LLVMInt16TypeInContext(L->cx), at[2] = {L->f32, L->f32};
	LLVMTypeRef ft = LLVMFunctionType(i16, at, 2, 0);
	LLVMValueRef fn =
	    LLVMGetInlineAsm(ft, text, strlen(text), "=h,f,f", 6, 0, 0, LLVMInlineAsmDialectATT, 0);
	LLVMValueRef args[2] = {hi, lo};
	return LLVMBuildCall2(L->b, ft, fn, args, 2, "");
}

/* An fp8 byte as f32, exactly, through f16: e5m2 is f16's top byte; e4m3's exponent and
 * mantissa placed in f16's read 2^8 too small (biases 7 and 15), subnormals included, and its
 * one NaN pattern (0x7f, either sign) would read 480. */
static LLVMValueRef
f8_dec(Lower *L, Type t, LLVMValueRef v)
{
	LLVMBuilderRef b = L->b;
	LLVMTypeRef i16 = LLVMInt16TypeInContext(L->cx), half = LLVMHalfTypeInContext(L->cx);
	LLVMValueRef w = LLVMBuildZExt(b, v, i16, "");
	if (t == TY_F8E5M2)
		return LLVMBuildFPExt(
		    b,
		    LLVMBuildBitCast(b, LLVMBuildShl(b, w, LLVMConstInt(i16, 8, 0), ""), half, ""),
		    L->f32, "");
	LLVMValueRef mag = LLVMBuildAnd(b, w, LLVMConstInt(i16, 0x7f, 0), "");
	LLVMValueRef h =
	    LLVMBuildOr(b,
			LLVMBuildShl(b, LLVMBuildAnd(b, w, LLVMConstInt(i16, 0x80, 0), ""),
				     LLVMConstInt(i16, 8, 0), ""),
			LLVMBuildShl(b, mag, LLVMConstInt(i16, 7, 0), ""), "");
	LLVMValueRef f = LLVMBuildFMul(
	    b, LLVMBuildFPExt(b, LLVMBuildBitCast(b, h, half, ""), L->f32, ""), cf(L, 256), "");
	LLVMValueRef nan = LLVMBuildICmp(b, LLVMIntEQ, mag, LLVMConstInt(i16, 0x7f, 0), "");
	return LLVMBuildSelect(b, nan, cf(L, NAN), f, "");
}

/*
 * Two fp8 bytes of type t (an i16, the first in the low byte) as f32, into out[0] and out[1],
 * where f8_hw says so: one cvt.rn.f16x2.e4m3x2 (e5m2x2), which puts the low byte's value in the
 * low half, then each half widened. Exact, as f8_dec (every fp8 value is an f16); a NaN gives the
 * hardware's NaN. LLVM 19 has no intrinsic for it: inline PTX.
 */
void
from_storage_pair(Lower *L, Type t, LLVMValueRef pair, LLVMValueRef *out)
{
	const char *text = type_resolve(t, L->c->dtype) == TY_F8E4M3
			       ? "cvt.rn.f16x2.e4m3x2 $0, $1;"
			       : "cvt.rn.f16x2.e5m2x2 $0, $1;";
	LLVMTypeRef i16 = LLVMInt16TypeInContext(L->cx);
	LLVMTypeRef ft = LLVMFunctionType(L->i32, &i16, 1, 0);
	LLVMValueRef fn =
	    LLVMGetInlineAsm(ft, text, strlen(text), "=r,h", 4, 0, 0, LLVMInlineAsmDialectATT, 0);
	LLVMValueRef h = LLVMBuildBitCast(L->b, LLVMBuildCall2(L->b, ft, fn, &pair, 1, ""),
					  LLVMVectorType(LLVMHalfTypeInContext(L->cx), 2), "");
	for (int e = 0; e < 2; e++)
		out[e] = LLVMBuildFPExt(L->b, LLVMBuildExtractElement(L->b, h, ci32(L, e), ""),
					L->f32, "");
}

LLVMValueRef
from_storage(Lower *L, Type t, LLVMValueRef v)
{
	t = type_resolve(t, L->c->dtype);
	if (t == TY_BF16 || t == TY_F16)
		return LLVMBuildFPExt(L->b, v, L->f32, "");
	if (f8_hw(L, t)) { /* a pair's conversion, its high byte 0 */
		LLVMValueRef out[2];
		from_storage_pair(L, t, LLVMBuildZExt(L->b, v, LLVMInt16TypeInContext(L->cx), ""),
				  out);
		return out[0];
	}
	if (is_f8(t))
		return f8_dec(L, t, v);
	if (t == TY_BOOL)
		return LLVMBuildICmp(L->b, LLVMIntNE, v, LLVMConstInt(L->i8, 0, 0), "");
	return v;
}

/* f32 v rounded to bf16 or f16 (t resolved), to nearest even. On the host a bf16 is rounded in
 * integers (NaN made quiet, its sign kept), as the x86 back end would otherwise call
 * __truncsfbf2 where the CPU lacks AVX512-BF16, and no library the process loads need have it
 * (libgcc has it from GCC 13 on): the emulator's bits then depend on no CPU feature. */
static LLVMValueRef
narrow(Lower *L, Type t, LLVMValueRef v)
{
	LLVMTypeRef st = storage_type(L, t);
	if (!L->host || t != TY_BF16)
		return LLVMBuildFPTrunc(L->b, v, st, "");
	LLVMValueRef i = LLVMBuildBitCast(L->b, v, L->i32, "");
	LLVMValueRef odd =
	    LLVMBuildAnd(L->b, LLVMBuildLShr(L->b, i, ci32(L, 16), ""), ci32(L, 1), "");
	LLVMValueRef r = LLVMBuildLShr(
	    L->b, LLVMBuildAdd(L->b, i, LLVMBuildAdd(L->b, odd, ci32(L, 0x7fff), ""), ""),
	    ci32(L, 16), "");
	LLVMValueRef q =
	    LLVMBuildOr(L->b, LLVMBuildLShr(L->b, i, ci32(L, 16), ""), ci32(L, 0x40), "");
	r = LLVMBuildSelect(L->b, LLVMBuildFCmp(L->b, LLVMRealUNO, v, v, ""), q, r, "");
	LLVMTypeRef i16 = LLVMInt16TypeInContext(L->cx);
	return LLVMBuildBitCast(L->b, LLVMBuildTrunc(L->b, r, i16, ""), st, "");
}

void
host_truncsfbf2(Lower *L)
{
	LLVMTypeRef bf = LLVMBFloatTypeInContext(L->cx);
	LLVMValueRef fn =
	    LLVMAddFunction(L->mod, "__truncsfbf2", LLVMFunctionType(bf, &L->f32, 1, 0));
	LLVMPositionBuilderAtEnd(L->b, LLVMAppendBasicBlockInContext(L->cx, fn, "entry"));
	LLVMBuildRet(L->b, narrow(L, TY_BF16, LLVMGetParam(fn, 0)));
}

LLVMValueRef
to_storage(Lower *L, Type t, LLVMValueRef v)
{
	LLVMTypeRef st = storage_type(L, t);
	t = type_resolve(t, L->c->dtype);
	if (t == TY_BF16 || t == TY_F16)
		return narrow(L, t, v);
	if (f8_hw(L, t))
		return LLVMBuildTrunc(L->b, f8_enc_pair_hw(L, t, v, cf(L, 0)), L->i8, "");
	if (is_f8(t))
		return f8_enc(L, t, v);
	if (t == TY_BOOL)
		return LLVMBuildZExt(L->b, v, st, "");
	if (type_is_int(t))
		return LLVMBuildIntCast2(L->b, v, st, 1, "");
	return v;
}

/*
 * Two f32 values to a bf16 or f16 pair, lo in element 0: one cvt.rn.bf16x2.f32 (f16x2), which
 * puts its first operand in the upper half. Rounds as to_storage does. The call is opaque to
 * LLVM, so a select feeding it stays an f32 select: folded through two single conversions it
 * became a 16-bit select an element and the moves to pack the halves again. An fp8 pair is one
 * cvt where f8_hw says so, else two f8_enc.
 */
LLVMValueRef
to_storage_pair(Lower *L, Type t, LLVMValueRef lo, LLVMValueRef hi)
{
	if (f8_hw(L, t))
		return LLVMBuildBitCast(L->b, f8_enc_pair_hw(L, t, lo, hi),
					LLVMVectorType(L->i8, 2), "");
	if (L->host || is_f8(type_resolve(t, L->c->dtype))) { /* two conversions */
		LLVMValueRef v = LLVMGetUndef(LLVMVectorType(storage_type(L, t), 2));
		v = LLVMBuildInsertElement(L->b, v, to_storage(L, t, lo), ci32(L, 0), "");
		return LLVMBuildInsertElement(L->b, v, to_storage(L, t, hi), ci32(L, 1), "");
	}
	LLVMValueRef a[2] = {hi, lo};
	int bf = type_resolve(t, L->c->dtype) == TY_BF16;
	return intr(L, bf ? "llvm.nvvm.ff2bf16x2.rn" : "llvm.nvvm.ff2f16x2.rn", NULL, a, 2);
}

/*
 * An i8 as f32 with no conversion instruction, which the SM runs at a quarter of its float rate:
 * the byte biased by 128 (x ^ 0x80, 0 to 255) under the exponent bits of 2^23 reads as the f32
 * 2^23 + 128 + x, less 2^23 + 128. Exact for every i8 (both are integers under 2^24), on the GPU
 * and in the emulator alike.
 */
static LLVMValueRef
i8_to_f32(Lower *L, LLVMValueRef v)
{
	LLVMBuilderRef b = L->b;
	LLVMValueRef u = LLVMBuildXor(b, v, LLVMConstInt(L->i8, 0x80, 0), "");
	u = LLVMBuildOr(b, LLVMBuildZExt(b, u, L->i32, ""), ci32(L, 0x4b000000), "");
	return LLVMBuildFSub(b, LLVMBuildBitCast(b, u, L->f32, ""), cf(L, 8388736.0), "");
}

static LLVMValueRef
cast(Lower *L, Type from, Type to, LLVMValueRef v)
{
	from = type_resolve(from, L->c->dtype);
	to = type_resolve(to, L->c->dtype);
	if (type_is_float(to)) {
		if (from == TY_BOOL)
			v = LLVMBuildUIToFP(L->b, v, L->f32, "");
		else if (from == TY_I8)
			v = i8_to_f32(L, v);
		else if (type_is_int(from))
			v = LLVMBuildSIToFP(L->b, v, L->f32, "");
		if (to == TY_BF16 || to == TY_F16) /* round to the narrow type, compute in f32 */
			v = LLVMBuildFPExt(L->b, narrow(L, to, v), L->f32, "");
		if (is_f8(to))
			v = f8_dec(L, to, f8_enc(L, to, v));
		return v;
	}
	if (to == TY_BOOL) {
		if (type_is_float(from))
			return LLVMBuildFCmp(L->b, LLVMRealUNE, v, cf(L, 0), "");
		if (from == TY_BOOL)
			return v;
		return LLVMBuildICmp(L->b, LLVMIntNE, v, LLVMConstInt(LLVMTypeOf(v), 0, 0), "");
	}
	LLVMTypeRef it = storage_type(L, to);
	if (type_is_float(from)) {
		LLVMTypeRef tys[2] = {it, L->f32};
		unsigned id = LLVMLookupIntrinsicID("llvm.fptosi.sat", 15);
		LLVMValueRef f = LLVMGetIntrinsicDeclaration(L->mod, id, tys, 2);
		return LLVMBuildCall2(L->b, LLVMIntrinsicGetType(L->cx, id, tys, 2), f, &v, 1, "");
	}
	if (from == TY_BOOL)
		return LLVMBuildZExt(L->b, v, it, "");
	return LLVMBuildIntCast2(L->b, v, it, 1, "");
}

static Type
arg_ty(Lower *L, const Arg *a)
{
	return a->kind == ARG_VAL ? L->k->vals[a->idx].type : TY_F32;
}

/* c[0] + c[1] y + ... + c[n-1] y^(n-1), by Horner's rule. */
static LLVMValueRef
horner(Lower *L, LLVMValueRef y, const double *c, int n)
{
	LLVMValueRef p = cf(L, c[n - 1]);
	for (int i = n - 2; i >= 0; i--)
		p = ffadd(L, ffmul(L, p, y), cf(L, c[i]));
	return p;
}

static LLVMValueRef
copysign2(Lower *L, LLVMValueRef mag, LLVMValueRef sign)
{
	LLVMValueRef a[2] = {mag, sign};
	return intr(L, "llvm.copysign", L->f32, a, 2);
}

/*
 * tanh in plain IR, which the emulator runs as it is (LLVM 19 has no tanh.approx intrinsic, and
 * inline PTX would leave the emulator another path): below |x| = 0.5 the odd Taylor series to
 * x^13 (the first term left out is under 1e-7 of tanh there), above it 1 - 2/(exp(2|x|) + 1)
 * with x's sign, which is 1 when the exponential overflows. Accuracy in docs/ir.md.
 */
static LLVMValueRef
ftanh(Lower *L, LLVMValueRef x)
{
	static const double c[] = {1,		-1.0 / 3,	  2.0 / 15,	    -17.0 / 315,
				   62.0 / 2835, -1382.0 / 155925, 21844.0 / 6081075};
	LLVMValueRef a = intr1(L, "llvm.fabs", L->f32, x);
	LLVMValueRef small = ffmul(L, x, horner(L, ffmul(L, x, x), c, 7));
	LLVMValueRef e = fexp(L, ffmul(L, a, cf(L, 2)));
	LLVMValueRef big = ffsub(L, cf(L, 1), ffmul(L, cf(L, 2), frcp(L, ffadd(L, e, cf(L, 1)))));
	LLVMValueRef lt = LLVMBuildFCmp(L->b, LLVMRealOLT, a, cf(L, 0.5), "");
	return LLVMBuildSelect(L->b, lt, small, copysign2(L, big, x), "");
}

/*
 * erf in plain IR: below |x| = 0.5 its Taylor series 2/sqrt(pi) (x - x^3/3 + x^5/10 - ...) to
 * x^13; above, Abramowitz and Stegun 7.1.26, 1 - (a1 t + ... + a5 t^5) exp(-x^2) with t = 1/(1 +
 * p|x|) (absolute error under 1.5e-7), with x's sign. Accuracy in docs/ir.md.
 */
static LLVMValueRef
ferf(Lower *L, LLVMValueRef x)
{
	static const double c[] = {1,	      -1.0 / 3,	   1.0 / 10,  -1.0 / 42,
				   1.0 / 216, -1.0 / 1320, 1.0 / 9360};
	static const double as[] = {0,		 0.254829592,  -0.284496736,
				    1.421413741, -1.453152027, 1.061405429};
	LLVMValueRef a = intr1(L, "llvm.fabs", L->f32, x);
	LLVMValueRef small =
	    ffmul(L, ffmul(L, x, cf(L, 1.1283791670955126)), horner(L, ffmul(L, x, x), c, 7));
	LLVMValueRef t = frcp(L, ffadd(L, ffmul(L, a, cf(L, 0.3275911)), cf(L, 1)));
	LLVMValueRef e = fexp(L, LLVMBuildFNeg(L->b, ffmul(L, a, a), ""));
	LLVMValueRef big = ffsub(L, cf(L, 1), ffmul(L, horner(L, t, as, 6), e));
	LLVMValueRef lt = LLVMBuildFCmp(L->b, LLVMRealOLT, a, cf(L, 0.5), "");
	return LLVMBuildSelect(L->b, lt, small, copysign2(L, big, x), "");
}

/*
 * pow(x, y) = 2^(y log2|x|) with C's rules for the rest: 1 when y is 0 or |x| is 1 (even for a
 * NaN other operand or an infinite y); for x < 0, negative when y is an odd integer, and NaN
 * when y is not an integer unless x is -inf. -0 counts as +0 (C gives -inf for pow(-0, -1)).
 */
static LLVMValueRef
fpow(Lower *L, LLVMValueRef x, LLVMValueRef y)
{
	LLVMBuilderRef b = L->b;
	LLVMValueRef a = intr1(L, "llvm.fabs", L->f32, x);
	LLVMValueRef mag = intr1(L, "llvm.nvvm.ex2.approx.f", NULL,
				 ffmul(L, y, intr1(L, "llvm.nvvm.lg2.approx.f", NULL, a)));
	LLVMValueRef one = LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealOEQ, a, cf(L, 1), ""),
				       LLVMBuildFCmp(b, LLVMRealOEQ, y, cf(L, 0), ""), "");
	mag = LLVMBuildSelect(b, one, cf(L, 1), mag, "");
	LLVMValueRef h = LLVMBuildFMul(b, y, cf(L, 0.5), "");
	LLVMValueRef yint =
	    LLVMBuildFCmp(b, LLVMRealOEQ, intr1(L, "llvm.roundeven", L->f32, y), y, "");
	LLVMValueRef yodd = LLVMBuildAnd(
	    b, yint, LLVMBuildFCmp(b, LLVMRealUNE, intr1(L, "llvm.roundeven", L->f32, h), h, ""),
	    "");
	LLVMValueRef neg = LLVMBuildFCmp(b, LLVMRealOLT, x, cf(L, 0), "");
	LLVMValueRef r =
	    LLVMBuildSelect(b, LLVMBuildAnd(b, neg, yodd, ""), LLVMBuildFNeg(b, mag, ""), mag, "");
	LLVMValueRef fin = LLVMBuildFCmp(b, LLVMRealONE, a, cf(L, INFINITY), "");
	LLVMValueRef bad =
	    LLVMBuildAnd(b, LLVMBuildAnd(b, neg, fin, ""), LLVMBuildNot(b, yint, ""), "");
	return LLVMBuildSelect(b, bad, cf(L, NAN), r, "");
}

/* A compare: ordered on floats (NaN compares false but for ne), signed on integers. Integers of
 * two widths are widened to i64 first, so that an i64 label compares exactly with an i64 column;
 * two i32 operands (col_compare's) compare as they are. */
static LLVMValueRef
compare(Lower *L, const Instr *in, LLVMValueRef *x)
{
	static const LLVMRealPredicate fp[] = {LLVMRealOLT, LLVMRealOLE, LLVMRealOGT,
					       LLVMRealOGE, LLVMRealOEQ, LLVMRealUNE};
	static const LLVMIntPredicate ip[] = {LLVMIntSLT, LLVMIntSLE, LLVMIntSGT,
					      LLVMIntSGE, LLVMIntEQ,  LLVMIntNE};
	int i = in->op - OP_LT;
	if (!type_is_int(type_resolve(arg_ty(L, &in->args[0]), L->c->dtype)))
		return LLVMBuildFCmp(L->b, fp[i], x[0], x[1], "");
	if (LLVMTypeOf(x[0]) == L->i32 && LLVMTypeOf(x[1]) == L->i32)
		return LLVMBuildICmp(L->b, ip[i], x[0], x[1], "");
	LLVMValueRef a = LLVMBuildSExtOrBitCast(L->b, x[0], L->i64, "");
	LLVMValueRef c = LLVMBuildSExtOrBitCast(L->b, x[1], L->i64, "");
	return LLVMBuildICmp(L->b, ip[i], a, c, "");
}

/*
 * A column against a value the same for the whole row (a label, a parameter): which operand is
 * the column, or -1 when the compare is not one such, or the compiled N does not fit i32.
 * Columns lie in [0, N), so clamping the other side to [-1, N] keeps every compare's outcome,
 * and then both fit i32: one 32-bit compare an element, where the i64 one takes two
 * instructions (ISETP and ISETP.EX on sm_80 and sm_90).
 */
int
col_compare(Lower *L, const Instr *in)
{
	if (in->op < OP_LT || in->op > OP_NE || L->c->N > INT32_MAX)
		return -1;
	for (int c = 0; c < 2; c++) {
		const Arg *col = &in->args[c], *v = &in->args[1 - c];
		if (col->kind == ARG_VAL && L->k->ins[L->k->vals[col->idx].def].op == OP_COL &&
		    !(v->kind == ARG_VAL && shape_has_n(L->k->vals[v->idx].shape)) &&
		    type_is_int(type_resolve(arg_ty(L, v), L->c->dtype)))
			return c;
	}
	return -1;
}

/* The row value v (an integer) clamped to [-1, N], as i32: col_compare's other side. */
LLVMValueRef
col_bound(Lower *L, LLVMValueRef v)
{
	LLVMBuilderRef b = L->b;
	v = LLVMBuildSExtOrBitCast(b, v, L->i64, "");
	v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, v, ci64(L, -1), ""), ci64(L, -1), v,
			    "");
	v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, v, L->N, ""), L->N, v, "");
	return LLVMBuildTrunc(b, v, L->i32, "");
}

LLVMValueRef
row_blocks(Lower *L)
{
	int64_t mb = L->c->cfg.m_block;
	return LLVMBuildSDiv(L->b, LLVMBuildAdd(L->b, L->M, ci64(L, mb - 1), ""), ci64(L, mb), "");
}

LLVMValueRef
chunk_col(Lower *L, const Chunk *ch, int e)
{
	if (ch->vcol)
		return ch->vcol[e];
	long long off = (long long)(e / ch->vec) * L->tpr * ch->vec + e % ch->vec;
	return LLVMBuildAdd(L->b, ch->col, ci64(L, off), "");
}

/* An elementwise op on operands already in registers. */
LLVMValueRef
apply_op(Lower *L, const Instr *in, LLVMValueRef *x)
{
	LLVMBuilderRef b = L->b;
	switch (in->op) {
	case OP_CAST:
		return cast(L, arg_ty(L, &in->args[0]), in->to, x[0]);
	case OP_NEG:
		return LLVMBuildFNeg(b, x[0], "");
	case OP_EXP:
		return fexp(L, x[0]);
	case OP_LOG:
		return flog(L, x[0], log_normal(L, in));
	case OP_SQRT:
		return intr1(L, "llvm.nvvm.sqrt.approx.f", NULL, x[0]);
	case OP_RSQRT:
		return intr1(L, "llvm.nvvm.rsqrt.approx.f", NULL, x[0]);
	case OP_ABS:
		return intr1(L, "llvm.fabs", L->f32, x[0]);
	case OP_SIGMOID:
	case OP_SILU: {
		LLVMValueRef e = fexp(L, LLVMBuildFNeg(b, x[0], ""));
		LLVMValueRef s = frcp(L, ffadd(L, e, cf(L, 1)));
		return in->op == OP_SILU ? ffmul(L, x[0], s) : s;
	}
	case OP_TANH:
		return ftanh(L, x[0]);
	case OP_ERF:
		return ferf(L, x[0]);
	case OP_ROUND:
		return intr1(L, "llvm.roundeven", L->f32, x[0]);
	case OP_ADD:
		return ffadd(L, x[0], x[1]);
	case OP_SUB:
		return ffsub(L, x[0], x[1]);
	case OP_MUL:
		return ffmul(L, x[0], x[1]);
	case OP_DIV: {
		/* by a constant (N, the compiled one): a multiply by its reciprocal */
		if (LLVMIsAConstantFP(x[1]))
			return ffmul(L, x[0], frcp(L, x[1]));
		/* 2 ulp; |divisor| in [2^-126, 2^126]; div.rn would spill next to a held row */
		LLVMValueRef a[2] = {x[0], x[1]};
		return intr(L, "llvm.nvvm.div.approx.f", NULL, a, 2);
	}
	case OP_MAX:
		return fmax2(L, x[0], x[1]);
	case OP_MIN:
		return fmin2(L, x[0], x[1]);
	case OP_POW:
		return fpow(L, x[0], x[1]);
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE:
	case OP_EQ:
	case OP_NE:
		return compare(L, in, x);
	case OP_SELECT:
		return LLVMBuildSelect(b, x[0], x[1], x[2], "");
	case OP_CLAMP:
		return fmin2(L, fmax2(L, x[0], x[1]), x[2]);
	default:
		diag(L->d, "internal error: op %s is not elementwise", op_info[in->op].name);
		L->err = 1;
		return LLVMGetUndef(L->f32);
	}
}

For
for_open(Lower *L, int64_t n, const char *name)
{
	For f;
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b);
	f.head = LLVMAppendBasicBlockInContext(L->cx, L->fn, name);
	LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(L->cx, L->fn, name);
	f.done = LLVMAppendBasicBlockInContext(L->cx, L->fn, name);
	LLVMBuildBr(L->b, f.head);
	LLVMPositionBuilderAtEnd(L->b, f.head);
	f.i = LLVMBuildPhi(L->b, L->i64, "");
	LLVMValueRef zero = ci64(L, 0);
	LLVMAddIncoming(f.i, &zero, &pre, 1);
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, f.i, ci64(L, n), ""), body, f.done);
	LLVMPositionBuilderAtEnd(L->b, body);
	return f;
}

void
for_close(Lower *L, For *f)
{
	LLVMValueRef next = LLVMBuildAdd(L->b, f->i, ci64(L, 1), "");
	LLVMBasicBlockRef latch = LLVMGetInsertBlock(L->b);
	LLVMBuildBr(L->b, f->head);
	LLVMAddIncoming(f->i, &next, &latch, 1);
	LLVMPositionBuilderAtEnd(L->b, f->done);
}
