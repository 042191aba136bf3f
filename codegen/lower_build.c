/* Lowering: the LLVM builder helpers: constants, float ops, intrinsics, storage casts, ops. */
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
		/* the emulator provides "emu.X" for each llvm.nvvm.X */
		char host[128];
		snprintf(host, sizeof host, "emu.%s", name + 10);
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

/* exp(x) = 2^(x*log2 e): LLVM 19 cannot lower llvm.exp2 on NVPTX, the nvvm intrinsic can. */
LLVMValueRef
fexp(Lower *L, LLVMValueRef x)
{
	return intr1(L, "llvm.nvvm.ex2.approx.f", NULL, ffmul(L, x, cf(L, 1.4426950408889634)));
}

static LLVMValueRef
flog(Lower *L, LLVMValueRef x)
{
	return ffmul(L, intr1(L, "llvm.nvvm.lg2.approx.f", NULL, x), cf(L, 0.6931471805599453));
}

/* 1/x to 1 ulp: divisions here are by row sums, counts and scales, never by denormals, and
 * div.rn's slow path costs registers (it made ptxas spill welford). */
LLVMValueRef
frcp(Lower *L, LLVMValueRef x)
{
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
	default: /* i8, bool */
		return L->i8;
	}
}

LLVMValueRef
from_storage(Lower *L, Type t, LLVMValueRef v)
{
	t = type_resolve(t, L->c->dtype);
	if (t == TY_BF16 || t == TY_F16)
		return LLVMBuildFPExt(L->b, v, L->f32, "");
	if (t == TY_BOOL)
		return LLVMBuildICmp(L->b, LLVMIntNE, v, LLVMConstInt(L->i8, 0, 0), "");
	return v;
}

LLVMValueRef
to_storage(Lower *L, Type t, LLVMValueRef v)
{
	LLVMTypeRef st = storage_type(L, t);
	t = type_resolve(t, L->c->dtype);
	if (t == TY_BF16 || t == TY_F16)
		return LLVMBuildFPTrunc(L->b, v, st, "");
	if (t == TY_BOOL)
		return LLVMBuildZExt(L->b, v, st, "");
	if (type_is_int(t))
		return LLVMBuildIntCast2(L->b, v, st, 1, "");
	return v;
}

static LLVMValueRef
cast(Lower *L, Type from, Type to, LLVMValueRef v)
{
	from = type_resolve(from, L->c->dtype);
	to = type_resolve(to, L->c->dtype);
	if (type_is_float(to)) {
		if (from == TY_BOOL)
			v = LLVMBuildUIToFP(L->b, v, L->f32, "");
		else if (type_is_int(from))
			v = LLVMBuildSIToFP(L->b, v, L->f32, "");
		if (to == TY_BF16 || to == TY_F16) /* round to the narrow type, compute in f32 */
			v = LLVMBuildFPExt(L->b, LLVMBuildFPTrunc(L->b, v, storage_type(L, to), ""),
					   L->f32, "");
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
		return flog(L, x[0]);
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
	case OP_ROUND:
		return intr1(L, "llvm.roundeven", L->f32, x[0]);
	case OP_ADD:
		return ffadd(L, x[0], x[1]);
	case OP_SUB:
		return ffsub(L, x[0], x[1]);
	case OP_MUL:
		return ffmul(L, x[0], x[1]);
	case OP_DIV: {
		/* 2 ulp; |divisor| in [2^-126, 2^126]; div.rn would spill next to a held row */
		LLVMValueRef a[2] = {x[0], x[1]};
		return intr(L, "llvm.nvvm.div.approx.f", NULL, a, 2);
	}
	case OP_MAX:
		return fmax2(L, x[0], x[1]);
	case OP_MIN:
		return fmin2(L, x[0], x[1]);
	case OP_LT:
		return LLVMBuildFCmp(b, LLVMRealOLT, x[0], x[1], "");
	case OP_LE:
		return LLVMBuildFCmp(b, LLVMRealOLE, x[0], x[1], "");
	case OP_GT:
		return LLVMBuildFCmp(b, LLVMRealOGT, x[0], x[1], "");
	case OP_GE:
		return LLVMBuildFCmp(b, LLVMRealOGE, x[0], x[1], "");
	case OP_EQ:
		return LLVMBuildFCmp(b, LLVMRealOEQ, x[0], x[1], "");
	case OP_NE:
		return LLVMBuildFCmp(b, LLVMRealUNE, x[0], x[1], "");
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
