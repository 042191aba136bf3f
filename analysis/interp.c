/* Reference interpreter: runs a kernel on the CPU in float64, one row at a time. */
#include <math.h>
#include <stdlib.h>

#include "analysis/analysis.h"

/*
 * Rows are independent, so a row's [M,N] values need only N doubles each, and only while they
 * are live: buffers come from a free list and go back at a value's last use. A loaded [M,N] or
 * [N] value points into the caller's array instead of being copied. Values without M in their
 * shape ([N] and scalars) do not change from row to row and are computed on the first row only.
 */
typedef struct Tile Tile;
struct Tile {
	Tile *next;
	double e[];
};

typedef struct {
	const Kernel *k;
	int64_t N, row;
	double **bufs;
	double n;      /* N as an operand */
	double *pval;  /* scalar params' values */
	double *sc;    /* each [M] or scalar value of the current row */
	double **data; /* each [N] or [M,N] value's elements */
	Tile **tile;   /* the pool buffer behind data[v], when it has one */
	int *last;     /* the last instruction that reads each value; -1 if none */
	Tile *free;
	Arena *arena;
	Diag *d;
} Interp;

typedef struct {
	const double *p;
	int64_t step; /* 1 along N, 0 for a value the same at every element */
} Src;

static Src
src(Interp *it, const Arg *a)
{
	switch (a->kind) {
	case ARG_VAL:
		if (shape_has_n(it->k->vals[a->idx].shape))
			return (Src){it->data[a->idx], 1};
		return (Src){&it->sc[a->idx], 0};
	case ARG_PARAM:
		return (Src){&it->pval[a->idx], 0};
	case ARG_IMM:
		return (Src){&a->imm, 0};
	case ARG_N:
		break;
	}
	return (Src){&it->n, 0};
}

/* Where a result's elements go, and how many there are. */
static double *
dest(Interp *it, int v, int64_t *len)
{
	if (!shape_has_n(it->k->vals[v].shape)) {
		*len = 1;
		return &it->sc[v];
	}
	*len = it->N;
	if (it->k->vals[v].shape == SH_VEC) /* row-invariant: kept for every row */
		return it->data[v] = arena_alloc(it->arena, it->N * sizeof(double));
	Tile *t = it->free;
	if (t)
		it->free = t->next;
	else
		t = arena_alloc(it->arena, sizeof(Tile) + it->N * sizeof(double));
	it->tile[v] = t;
	return it->data[v] = t->e;
}

static void
release(Interp *it, int v)
{
	Tile *t = it->tile[v];
	if (!t)
		return;
	t->next = it->free;
	it->free = t;
	it->tile[v] = NULL;
}

static double
sigmoid(double x)
{
	return 1 / (1 + exp(-x));
}

static double
unary(Op op, double x)
{
	switch (op) {
	case OP_NEG:
		return -x;
	case OP_EXP:
		return exp(x);
	case OP_LOG:
		return log(x);
	case OP_SQRT:
		return sqrt(x);
	case OP_RSQRT:
		return 1 / sqrt(x);
	case OP_ABS:
		return fabs(x);
	case OP_SIGMOID:
		return sigmoid(x);
	case OP_SILU:
		return x * sigmoid(x);
	case OP_TANH:
		return tanh(x);
	case OP_ERF:
		return erf(x);
	default: /* OP_ROUND; the default rounding mode breaks ties to even */
		return nearbyint(x);
	}
}

/* Max and min follow PTX max.f32/min.f32: a NaN operand yields the other one. */
static double
binary(Op op, double a, double b)
{
	switch (op) {
	case OP_ADD:
		return a + b;
	case OP_SUB:
		return a - b;
	case OP_MUL:
		return a * b;
	case OP_DIV:
		return a / b;
	case OP_MAX:
		return fmax(a, b);
	case OP_MIN:
		return fmin(a, b);
	case OP_POW:
		return pow(a, b);
	case OP_LT:
		return a < b;
	case OP_LE:
		return a <= b;
	case OP_GT:
		return a > b;
	case OP_GE:
		return a >= b;
	case OP_EQ:
		return a == b;
	default: /* OP_NE */
		return a != b;
	}
}

static double
int_min(Type t)
{
	return t == TY_I8 ? INT8_MIN : t == TY_I32 ? INT32_MIN : -0x1p63;
}

/* For i64 this is 2^63, what (double)INT64_MAX gives when a caller converts the GPU's result. */
static double
int_max(Type t)
{
	return t == TY_I8 ? INT8_MAX : t == TY_I32 ? INT32_MAX : 0x1p63;
}

/* Float to int truncates and saturates, NaN giving 0 (PTX cvt.rzi.sat). Int to a narrower int
 * keeps the low bits, as LLVM's trunc does. Float to fp8 rounds and saturates as the GPU does:
 * fp8's rounding error (up to 2^-4 of a value) is beyond every tolerance, so the oracle rounds
 * too; the wider floats' rounding is left to the tolerances. */
static double
cast(Type to, Type from, double x)
{
	if (to == TY_F8E4M3 || to == TY_F8E5M2)
		return f8_round(to, x);
	if (type_is_float(to))
		return x;
	if (to == TY_BOOL)
		return x != 0;
	if (isnan(x))
		return 0;
	x = trunc(x);
	if (type_is_int(from) && to != TY_I64) {
		int64_t i = x <= -0x1p63 ? INT64_MIN : x >= 0x1p63 ? INT64_MAX : (int64_t)x;
		return to == TY_I8 ? (int8_t)i : (int32_t)i;
	}
	return x < int_min(to) ? int_min(to) : x > int_max(to) ? int_max(to) : x;
}

static void
reduce(Interp *it, const Instr *in)
{
	const double *x = src(it, &in->args[0]).p;
	int64_t N = it->N;
	double r = x[0];
	switch (in->op) {
	case OP_RSUM:
		r = 0;
		for (int64_t j = 0; j < N; j++)
			r += x[j];
		break;
	case OP_RMAX:
		for (int64_t j = 1; j < N; j++)
			r = fmax(r, x[j]);
		break;
	case OP_RMIN:
		for (int64_t j = 1; j < N; j++)
			r = fmin(r, x[j]);
		break;
	default: { /* OP_WELFORD: two passes give the exact population M2 that Welford's update
		    * approximates */
		double s = 0, m2 = 0;
		for (int64_t j = 0; j < N; j++)
			s += x[j];
		double mean = s / N;
		for (int64_t j = 0; j < N; j++)
			m2 += (x[j] - mean) * (x[j] - mean);
		double out[3] = {(double)N, mean, m2};
		for (int i = 0; i < 3; i++)
			if (in->res[i] >= 0)
				it->sc[in->res[i]] = out[i];
		return;
	}
	}
	it->sc[in->res[0]] = r;
}

static int
gather(Interp *it, const Instr *in)
{
	double i = *src(it, &in->args[in->nargs - 1]).p;
	if (!(i >= 0 && i < it->N))
		return diag_at(it->d, it->k->file, in->loc,
			       "gather index %g in row %lld is outside [0, %lld)", i,
			       (long long)it->row, (long long)it->N);
	it->sc[in->res[0]] = it->bufs[in->param][it->row * it->N + (int64_t)i];
	return 0;
}

static void
load(Interp *it, const Instr *in)
{
	const Param *p = &it->k->params[in->param];
	double *b = it->bufs[in->param];
	int v = in->res[0];
	if (p->shape == SH_ROW)
		it->sc[v] = b[it->row];
	else
		it->data[v] = p->shape == SH_TILE ? b + it->row * it->N : b;
}

/* A store converts as cast does: of the types a store may take (docs/ir.md), that changes only
 * values stored into fp8. */
static void
store(Interp *it, const Instr *in)
{
	const Param *p = &it->k->params[in->param];
	double *b = it->bufs[in->param];
	Src s = src(it, &in->args[in->nargs - 1]);
	Type from = arg_type(it->k, &in->args[in->nargs - 1]);
	if (p->shape == SH_ROW) {
		b[it->row] = cast(p->type, from, *s.p);
		return;
	}
	if (p->shape == SH_TILE)
		b += it->row * it->N;
	for (int64_t j = 0; j < it->N; j++)
		b[j] = cast(p->type, from, s.p[j * s.step]);
}

/* Elementwise ops: unary, binary, compares, cast, select and clamp; and col, the column. */
static void
elementwise(Interp *it, const Instr *in)
{
	if (in->op == OP_COL) {
		int64_t len;
		double *y = dest(it, in->res[0], &len);
		for (int64_t j = 0; j < len; j++)
			y[j] = (double)j;
		return;
	}
	Src a[MAX_ARGS];
	for (int i = 0; i < in->nargs; i++)
		a[i] = src(it, &in->args[i]);
	int64_t len;
	double *y = dest(it, in->res[0], &len);
	Type from = arg_type(it->k, &in->args[0]);
	for (int64_t j = 0; j < len; j++) {
		double x = a[0].p[j * a[0].step];
		switch (in->op) {
		case OP_CAST:
			y[j] = cast(in->to, from, x);
			break;
		case OP_SELECT:
			y[j] = x != 0 ? a[1].p[j * a[1].step] : a[2].p[j * a[2].step];
			break;
		case OP_CLAMP: {
			double lo = a[1].p[j * a[1].step], hi = a[2].p[j * a[2].step];
			y[j] = x < lo ? lo : x > hi ? hi : x;
			break;
		}
		default:
			y[j] = in->nargs == 1 ? unary(in->op, x)
					      : binary(in->op, x, a[1].p[j * a[1].step]);
		}
	}
}

/* colsum: the sum over rows so far, in the [N] buffer its first row allocates (zeroed). */
static void
colsum(Interp *it, const Instr *in)
{
	Src x = src(it, &in->args[0]);
	int v = in->res[0];
	if (!it->data[v])
		it->data[v] = arena_alloc(it->arena, it->N * sizeof(double));
	for (int64_t j = 0; j < it->N; j++)
		it->data[v][j] += x.p[j * x.step];
}

/* Does the instruction give the same result in every row? Nothing without M in its shape reads
 * anything with M in its shape; a colsum reads every row, and its store waits for the last. */
static int
row_invariant(const Kernel *k, const Instr *in)
{
	if (op_is_reduce(in->op) || in->op == OP_GATHER || in->op == OP_COLSUM ||
	    instr_is_colsum_store(k, in))
		return 0;
	Shape s = in->op == OP_STORE ? k->params[in->param].shape : k->vals[in->res[0]].shape;
	return s == SH_VEC || s == SH_SCALAR;
}

static int
exec(Interp *it, const Instr *in)
{
	switch (in->op) {
	case OP_LOAD:
		load(it, in);
		return 0;
	case OP_GATHER:
		return gather(it, in);
	case OP_STORE:
		store(it, in);
		return 0;
	case OP_COLSUM:
		colsum(it, in);
		return 0;
	case OP_RSUM:
	case OP_RMAX:
	case OP_RMIN:
	case OP_WELFORD:
		reduce(it, in);
		return 0;
	default:
		elementwise(it, in);
		return 0;
	}
}

static int
check_bufs(const Kernel *k, int64_t M, int64_t N, double **bufs, Diag *d)
{
	Loc none = {0, 0};
	if (M < 0 || N < 1)
		return diag_at(d, k->file, none, "cannot interpret %s with M=%lld, N=%lld", k->name,
			       (long long)M, (long long)N);
	for (int p = 0; p < k->nparams; p++)
		if (k->params[p].kind != P_PARAM && !bufs[p])
			return diag_at(d, k->file, none, "no array for '%s'", k->params[p].name);
	return 0;
}

int
interp_run(const Kernel *k, int64_t M, int64_t N, double **bufs, Diag *d)
{
	if (check_bufs(k, M, N, bufs, d))
		return -1;
	Interp it = {.k = k, .N = N, .bufs = bufs, .n = (double)N, .d = d, .arena = arena_new()};
	it.pval = arena_alloc(it.arena, (k->nparams + 1) * sizeof(double));
	for (int p = 0; p < k->nparams; p++)
		if (k->params[p].kind == P_PARAM)
			it.pval[p] = bufs[p] ? bufs[p][0] : k->params[p].def;
	it.sc = arena_alloc(it.arena, (k->nvals + 1) * sizeof(double));
	it.data = arena_alloc(it.arena, (k->nvals + 1) * sizeof(double *));
	it.tile = arena_alloc(it.arena, (k->nvals + 1) * sizeof(Tile *));
	it.last = arena_alloc(it.arena, (k->nvals + 1) * sizeof(int));
	for (int v = 0; v < k->nvals; v++)
		it.last[v] = -1;
	for (int i = 0; i < k->nins; i++)
		for (int a = 0; a < k->ins[i].nargs; a++)
			if (k->ins[i].args[a].kind == ARG_VAL)
				it.last[k->ins[i].args[a].idx] = i;

	int rc = 0;
	for (it.row = 0; it.row < M && !rc; it.row++) {
		for (int i = 0; i < k->nins && !rc; i++) {
			const Instr *in = &k->ins[i];
			/* A single result discarded with "_" needs no computing. */
			if (in->op != OP_STORE && in->nres == 1 && in->res[0] < 0)
				continue;
			if ((it.row > 0 && row_invariant(k, in)) || instr_is_colsum_store(k, in))
				continue;
			rc = exec(&it, in);
			for (int a = 0; a < in->nargs; a++)
				if (in->args[a].kind == ARG_VAL && it.last[in->args[a].idx] == i)
					release(&it, in->args[a].idx);
			for (int r = 0; r < in->nres; r++)
				if (in->res[r] >= 0 && it.last[in->res[r]] < 0)
					release(&it, in->res[r]);
		}
	}
	/* the sums over rows are complete: their stores (a colsum of no rows is 0) */
	for (int i = 0; i < k->nins && !rc; i++)
		if (instr_is_colsum_store(k, &k->ins[i])) {
			int v = argval(&k->ins[i], 0);
			if (!it.data[v])
				it.data[v] = arena_alloc(it.arena, N * sizeof(double));
			store(&it, &k->ins[i]);
		}
	arena_free(it.arena);
	return rc;
}
