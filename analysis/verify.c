/* Verifier: infers each value's type and shape and checks the rules of docs/ir.md. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

typedef struct {
	Kernel *k;
	Diag *d;
	int *uses;
} Verifier;

static int
err(Verifier *v, Loc loc, const char *fmt, const char *a, const char *b)
{
	return diag_at(v->d, v->k->file, loc, fmt, a, b);
}

static const char *
arg_text(const Kernel *k, const Arg *a, char *tmp, size_t n)
{
	switch (a->kind) {
	case ARG_VAL:
		snprintf(tmp, n, "%%%s", k->vals[a->idx].name);
		break;
	case ARG_PARAM:
		snprintf(tmp, n, "%s", k->params[a->idx].name);
		break;
	case ARG_N:
		snprintf(tmp, n, "N");
		break;
	case ARG_IMM:
		snprintf(tmp, n, "%g", a->imm);
		break;
	}
	return tmp;
}

static int
check_args(Verifier *v, int at, const Instr *in)
{
	for (int i = 0; i < in->nargs; i++) {
		const Arg *a = &in->args[i];
		if (a->kind == ARG_VAL) {
			if (a->idx < 0 || a->idx >= v->k->nvals || v->k->vals[a->idx].def >= at)
				return diag_at(v->d, v->k->file, a->loc,
					       "use of a value before its definition");
			v->uses[a->idx]++;
		} else if (a->kind == ARG_PARAM) {
			if (a->idx < 0 || a->idx >= v->k->nparams ||
			    v->k->params[a->idx].kind != P_PARAM)
				return diag_at(v->d, v->k->file, a->loc,
					       "operand is not a scalar param");
		}
	}
	return 0;
}

static int
want_float(Verifier *v, const Instr *in, int i)
{
	Type t = arg_type(v->k, &in->args[i]);
	char tmp[160];
	if (!type_is_float(t))
		return err(v, in->args[i].loc,
			   "'%s' needs a float operand, but %s is not one (cast it with cast.f32)",
			   op_info[in->op].name, arg_text(v->k, &in->args[i], tmp, sizeof tmp));
	return 0;
}

/* A compare takes two floats, or two integers (of any widths, compared exactly): an integer
 * against a float is an error, not a silent rounding of either. */
static int
check_compare(Verifier *v, const Instr *in)
{
	Type t[2] = {arg_type(v->k, &in->args[0]), arg_type(v->k, &in->args[1])};
	if (type_is_int(t[0]) && type_is_int(t[1]))
		return 0;
	if (!type_is_int(t[0]) && !type_is_int(t[1]))
		return want_float(v, in, 0) < 0 || want_float(v, in, 1) < 0 ? -1 : 0;
	char a[160], b[160];
	int f = type_is_int(t[0]); /* the operand that is not an integer */
	return diag_at(v->d, v->k->file, in->args[f].loc,
		       "'%s' compares two floats or two integers, but %s is %s and %s is %s (cast "
		       "one of them)",
		       op_info[in->op].name, arg_text(v->k, &in->args[0], a, sizeof a),
		       type_name(t[0]), arg_text(v->k, &in->args[1], b, sizeof b), type_name(t[1]));
}

static int
check_instr(Verifier *v, int at, Instr *in)
{
	Kernel *k = v->k;
	const char *name = op_info[in->op].name;
	Param *p = in->param >= 0 ? &k->params[in->param] : NULL;
	Type ty = TY_F32;
	Shape sh = SH_SCALAR;
	char tmp[160];

	if (check_args(v, at, in) < 0)
		return -1;
	/* a sum over rows is known only after the last row: nothing in a row can read it */
	for (int i = 0; i < in->nargs && in->op != OP_STORE; i++)
		if (argval(in, i) >= 0 && k->ins[k->vals[argval(in, i)].def].op == OP_COLSUM)
			return err(
			    v, in->args[i].loc,
			    "%s is a sum over rows, known only after the last row: it can only "
			    "be stored (into an [N] output), not used by '%s'",
			    arg_text(k, &in->args[i], tmp, sizeof tmp), name);
	switch (in->op) {
	case OP_LOAD:
		if (p->kind != P_IN)
			return err(v, in->loc, "'%s' loads '%s', which is not an input", name,
				   p->name);
		ty = p->type;
		sh = p->shape;
		break;
	case OP_GATHER: {
		if (p->kind != P_IN || p->shape != SH_TILE)
			return err(v, in->loc, "'%s' reads from an [M,N] input; '%s' is not one",
				   name, p->name);
		const Arg *ix = &in->args[0];
		if (ix->kind != ARG_VAL || !type_is_int(arg_type(k, ix)) ||
		    arg_shape(k, ix) != SH_ROW)
			return err(v, ix->loc, "'%s' needs an integer [M] index, got %s", name,
				   arg_text(k, ix, tmp, sizeof tmp));
		ty = p->type;
		sh = SH_ROW;
		break;
	}
	case OP_STORE: {
		if (p->kind != P_OUT)
			return err(v, in->loc, "'%s' writes '%s', which is not an output", name,
				   p->name);
		const Arg *a = &in->args[0];
		if (arg_shape(k, a) != p->shape)
			return diag_at(v->d, k->file, a->loc,
				       "'%s' is %s but the value stored is %s", p->name,
				       shape_name(p->shape),
				       shape_name(arg_shape(k, a))[0] ? shape_name(arg_shape(k, a))
								      : "a scalar");
		Type vt = arg_type(k, a);
		int ok = (type_is_float(vt) && type_is_float(p->type)) || vt == p->type;
		if (!ok)
			return diag_at(
			    v->d, k->file, a->loc,
			    "cannot store a %s value into '%s' of type %s without a cast",
			    type_name(vt), p->name, type_name(p->type));
		return 0;
	}
	case OP_CAST:
		ty = in->to;
		sh = arg_shape(k, &in->args[0]);
		break;
	case OP_COL: /* i64: N reaches 2^40, and labels are integers to compare it with */
		ty = TY_I64;
		sh = SH_VEC;
		break;
	case OP_SELECT:
		if (arg_type(k, &in->args[0]) != TY_BOOL)
			return err(v, in->args[0].loc, "'%s' needs a bool condition, got %s", name,
				   arg_text(k, &in->args[0], tmp, sizeof tmp));
		if (want_float(v, in, 1) < 0 || want_float(v, in, 2) < 0)
			return -1;
		for (int i = 0; i < 3; i++)
			sh = shape_join(sh, arg_shape(k, &in->args[i]));
		break;
	case OP_RSUM:
	case OP_RMAX:
	case OP_RMIN:
	case OP_WELFORD:
		if (want_float(v, in, 0) < 0)
			return -1;
		if (arg_shape(k, &in->args[0]) != SH_TILE)
			return err(v, in->args[0].loc, "'%s' reduces an [M,N] value; %s is not one",
				   name, arg_text(k, &in->args[0], tmp, sizeof tmp));
		sh = SH_ROW;
		break;
	case OP_COLSUM:
		if (want_float(v, in, 0) < 0)
			return -1;
		if (arg_shape(k, &in->args[0]) != SH_TILE)
			return err(v, in->args[0].loc,
				   "'%s' sums an [M,N] value over its rows; %s is not one", name,
				   arg_text(k, &in->args[0], tmp, sizeof tmp));
		sh = SH_VEC;
		break;
	default: /* unary, binary, compare, clamp */
		if (op_is_compare(in->op) && check_compare(v, in) < 0)
			return -1;
		for (int i = 0; i < in->nargs; i++) {
			if (!op_is_compare(in->op) && want_float(v, in, i) < 0)
				return -1;
			sh = shape_join(sh, arg_shape(k, &in->args[i]));
		}
		if (op_is_compare(in->op))
			ty = TY_BOOL;
		break;
	}
	for (int i = 0; i < in->nres; i++)
		if (in->res[i] >= 0) {
			k->vals[in->res[i]].type = ty;
			k->vals[in->res[i]].shape = sh;
		}
	return 0;
}

int
kernel_limits(const char *file, Loc loc, int nparams, int nins, Diag *d)
{
	if (nparams > MAX_PARAMS)
		return diag_at(d, file, loc,
			       "too many parameters: a kernel has at most %d in, out and param "
			       "declarations (docs/ir.md, Limits)",
			       MAX_PARAMS);
	if (nins > MAX_INSTRS)
		return diag_at(d, file, loc,
			       "too many instructions: a kernel has at most %d statements "
			       "(docs/ir.md, Limits)",
			       MAX_INSTRS);
	return 0;
}

int
kernel_verify(Kernel *k, Diag *d)
{
	if (kernel_limits(k->file, (Loc){0}, k->nparams, k->nins, d))
		return -1;
	Verifier v = {k, d, calloc((size_t)k->nvals + 1, sizeof(int))};
	int *reads = calloc((size_t)k->nparams + 1, sizeof(int));
	int rc = 0;
	for (int i = 0; i < k->nins && rc == 0; i++) {
		Instr *in = &k->ins[i];
		rc = check_instr(&v, i, in);
		if (in->param >= 0)
			reads[in->param]++;
	}
	for (int i = 0; i < k->nvals && rc == 0; i++)
		if (v.uses[i] == 0)
			rc = diag_at(d, k->file, k->ins[k->vals[i].def].loc,
				     "value '%%%s' is never used (name it _ to discard it)",
				     k->vals[i].name);
	for (int i = 0; i < k->nparams && rc == 0; i++) {
		Param *p = &k->params[i];
		if (p->kind == P_IN && reads[i] == 0)
			rc = diag_at(d, k->file, p->loc, "input '%s' is never loaded", p->name);
		else if (p->kind == P_OUT && reads[i] == 0)
			rc = diag_at(d, k->file, p->loc, "output '%s' is never stored", p->name);
		else if (p->kind == P_OUT && reads[i] > 1)
			rc = diag_at(d, k->file, p->loc,
				     "output '%s' is stored %d times; store it once", p->name,
				     reads[i]);
	}
	free(v.uses);
	free(reads);
	if (rc == 0) {
		order_stores(k);
		rewrite_kernel(k);
		k->plan = plan_build(k, k->arena);
	}
	return rc;
}
