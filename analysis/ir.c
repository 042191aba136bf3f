/* The IR's small helpers: arena, Buf, diagnostics, type and op tables. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ir.h"

typedef struct Chunk Chunk;
struct Chunk {
	Chunk *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
};

struct Arena {
	Chunk *head;
};

static void
die_oom(void)
{
	fputs("rkc: out of memory\n", stderr);
	abort();
}

Arena *
arena_new(void)
{
	Arena *a = calloc(1, sizeof *a);
	if (!a)
		die_oom();
	return a;
}

void
arena_free(Arena *a)
{
	if (!a)
		return;
	for (Chunk *c = a->head, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	free(a);
}

void *
arena_alloc(Arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	Chunk *c = a->head;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > 65536 ? n : 65536;
		c = malloc(sizeof *c + cap);
		if (!c)
			die_oom();
		c->next = a->head;
		c->used = 0;
		c->cap = cap;
		a->head = c;
	}
	void *p = c->data + c->used;
	c->used += n;
	memset(p, 0, n);
	return p;
}

char *
arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	return p;
}

char *
arena_strdup(Arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

static void
buf_grow(Buf *b, size_t need)
{
	if (b->len + need + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + need + 1)
		cap *= 2;
	b->s = realloc(b->s, cap);
	if (!b->s)
		die_oom();
	b->cap = cap;
}

void
buf_printf(Buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	buf_grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void
buf_puts(Buf *b, const char *s)
{
	size_t n = strlen(s);
	buf_grow(b, n);
	memcpy(b->s + b->len, s, n + 1);
	b->len += n;
}

void
buf_free(Buf *b)
{
	free(b->s);
	*b = (Buf){0};
}

void
buf_double(Buf *b, double d)
{
	if (isinf(d)) {
		buf_puts(b, d < 0 ? "-inf" : "inf");
		return;
	}
	if (isnan(d)) {
		buf_puts(b, "nan");
		return;
	}
	char tmp[64];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*g", prec, d);
		if (strtod(tmp, NULL) == d)
			break;
	}
	buf_puts(b, tmp);
}

void
buf_json_double(Buf *b, double d)
{
	if (isinf(d))
		buf_puts(b, d < 0 ? "\"-inf\"" : "\"inf\"");
	else
		buf_double(b, d);
}

int
inf_parse(const char *s, double *d)
{
	if (strcmp(s, "inf") && strcmp(s, "-inf"))
		return -1;
	*d = s[0] == '-' ? -INFINITY : INFINITY;
	return 0;
}

int64_t
cdiv(int64_t a, int64_t b)
{
	/* not (a + b - 1) / b, which overflows near INT64_MAX */
	return a / b + (a % b != 0);
}

int64_t
np2(int64_t n)
{
	/* 2^62 is the largest power of two an int64_t holds: stop there rather than overflow and
	 * loop for ever */
	int64_t r = 1;
	while (r < n && r <= INT64_MAX / 2)
		r *= 2;
	return r;
}

int64_t
pp2(int64_t n)
{
	int64_t r = 1;
	while (r <= n / 2) /* r * 2 <= n, without forming r * 2 */
		r *= 2;
	return r;
}

static int
shape_error(Diag *d, const char *text, const char *why)
{
	return diag(d,
		    "bad shape '%.64s': %s; a shape is MxN or BxLxN (M = B*L rows) in digits, "
		    "with 1 <= M <= 2^31-1, 1 <= N <= 2^40 and M*N <= 2^60",
		    text, why);
}

/* The range checks shape_parse and shape_check share; text is the shape as the user wrote it. */
static int
shape_range(const char *text, int64_t M, int64_t N, Diag *d)
{
	if (M < 1 || N < 1)
		return shape_error(d, text, "M and N must be at least 1");
	if (M > SHAPE_MAX_M)
		return shape_error(d, text, "M is over 2^31-1");
	if (N > SHAPE_MAX_N)
		return shape_error(d, text, "N is over 2^40");
	if (N > SHAPE_MAX_MN / M) /* M * N > 2^60, without forming M * N */
		return shape_error(d, text, "M*N is over 2^60");
	return 0;
}

int
shape_parse(const char *s, int64_t *M, int64_t *N, Diag *d)
{
	int64_t v[3];
	int n = 0;
	for (const char *p = s;; p++) {
		if (n == 3)
			return shape_error(d, s, "more than three dimensions");
		if (*p < '0' || *p > '9')
			return shape_error(d, s,
					   "expected digits (no spaces or signs) around each 'x'");
		/* past SHAPE_MAX_MN every value is out of range: saturate there, not wrap */
		int64_t x = 0;
		for (; *p >= '0' && *p <= '9'; p++)
			x = x > SHAPE_MAX_MN / 10 ? SHAPE_MAX_MN + 1 : x * 10 + (*p - '0');
		v[n++] = x;
		if (!*p)
			break;
		if (*p != 'x')
			return shape_error(d, s,
					   "expected digits (no spaces or signs) around each 'x'");
	}
	if (n < 2)
		return shape_error(d, s, "expected at least two dimensions");
	int64_t m = v[0];
	/* B*L: over the bound when either factor is (and neither is 0), without the product */
	if (n == 3)
		m = v[0] && v[1] && (v[0] > SHAPE_MAX_M || v[1] > SHAPE_MAX_M)
			? SHAPE_MAX_M + (int64_t)1
			: v[0] * v[1];
	if (shape_range(s, m, v[n - 1], d))
		return -1;
	*M = m;
	*N = v[n - 1];
	return 0;
}

int
shape_check(int64_t M, int64_t N, Diag *d)
{
	char text[48];
	snprintf(text, sizeof text, "%lldx%lld", (long long)M, (long long)N);
	return shape_range(text, M, N, d);
}

static int
vdiag(Diag *d, const char *file, Loc loc, const char *fmt, va_list ap)
{
	if (!d || d->set)
		return -1;
	int n = 0;
	if (file && loc.line)
		n = snprintf(d->msg, sizeof d->msg, "%s:%d:%d: error: ", file, loc.line, loc.col);
	else if (file)
		n = snprintf(d->msg, sizeof d->msg, "%s: error: ", file);
	else
		n = snprintf(d->msg, sizeof d->msg, "error: ");
	if (n < 0 || (size_t)n >= sizeof d->msg)
		n = 0;
	vsnprintf(d->msg + n, sizeof d->msg - (size_t)n, fmt, ap);
	d->set = 1;
	return -1;
}

int
diag_at(Diag *d, const char *file, Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag(d, file, loc, fmt, ap);
	va_end(ap);
	return -1;
}

int
diag(Diag *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag(d, NULL, (Loc){0}, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *type_names[TY_COUNT] = {
    [TY_T] = "T",	    [TY_F32] = "f32",	    [TY_BF16] = "bf16", [TY_F16] = "f16",
    [TY_F8E4M3] = "f8e4m3", [TY_F8E5M2] = "f8e5m2", [TY_I64] = "i64",	[TY_I32] = "i32",
    [TY_I8] = "i8",	    [TY_BOOL] = "bool",
};
static const int type_sizes[TY_COUNT] = {
    [TY_T] = -1,     [TY_F32] = 4, [TY_BF16] = 2, [TY_F16] = 2, [TY_F8E4M3] = 1,
    [TY_F8E5M2] = 1, [TY_I64] = 8, [TY_I32] = 4,  [TY_I8] = 1,	[TY_BOOL] = 1,
};

const char *
type_name(Type t)
{
	return (unsigned)t < TY_COUNT ? type_names[t] : "?";
}

int
type_parse(const char *s, Type *t)
{
	for (int i = 0; i < TY_COUNT; i++)
		if (strcmp(s, type_names[i]) == 0) {
			*t = (Type)i;
			return 0;
		}
	return -1;
}

int
type_size(Type t)
{
	return type_sizes[t];
}

int
type_is_float(Type t)
{
	return t == TY_T || t == TY_F32 || t == TY_BF16 || t == TY_F16 || t == TY_F8E4M3 ||
	       t == TY_F8E5M2;
}

/* The two fp8 formats: mantissa bits and exponent bias; e4m3 has no infinities and one NaN
 * mantissa at the top exponent, so its largest finite value is 1.75 * 2^8 = 448; e5m2 is IEEE
 * like, 1.75 * 2^15 = 57344. */
static int
f8_mbits(Type t)
{
	return t == TY_F8E4M3 ? 3 : 2;
}

static int
f8_bias(Type t)
{
	return t == TY_F8E4M3 ? 7 : 15;
}

static double
f8_max(Type t)
{
	return t == TY_F8E4M3 ? 448 : 57344;
}

uint8_t
f8_encode(Type t, double x)
{
	int mb = f8_mbits(t), bias = f8_bias(t);
	uint8_t sign = signbit(x) ? 0x80 : 0;
	if (isnan(x))
		return sign | 0x7f;
	double a = fabs(x);
	if (a > f8_max(t))
		a = f8_max(t);
	/* below the smallest normal, 2^(1-bias), the code is a count of subnormal steps
	 * 2^(1-bias-mb); the count 2^mb is the smallest normal, encoded the same way */
	if (a < ldexp(1, 1 - bias))
		return sign | (uint8_t)nearbyint(ldexp(a, bias - 1 + mb));
	int e;
	double f = frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
	double m = nearbyint((2 * f - 1) * (1 << mb));
	if (m == 1 << mb) { /* rounded up to the next power of two */
		m = 0;
		e++;
	}
	return sign | (uint8_t)((e - 1 + bias) << mb | (int)m);
}

double
f8_decode(Type t, uint8_t b)
{
	int mb = f8_mbits(t), bias = f8_bias(t);
	int e = (b & 0x7f) >> mb, m = b & ((1 << mb) - 1);
	double sign = b & 0x80 ? -1 : 1;
	if (t == TY_F8E4M3 && (b & 0x7f) == 0x7f)
		return NAN;
	if (t == TY_F8E5M2 && e == 31)
		return m ? NAN : sign * INFINITY;
	if (e == 0)
		return sign * ldexp(m, 1 - bias - mb);
	return sign * ldexp((1 << mb) + m, e - bias - mb);
}

double
f8_round(Type t, double x)
{
	return f8_decode(t, f8_encode(t, x));
}

int
type_is_int(Type t)
{
	return t == TY_I64 || t == TY_I32 || t == TY_I8;
}

Type
type_resolve(Type t, Type dtype)
{
	return t == TY_T ? dtype : t;
}

const char *
shape_name(Shape s)
{
	static const char *names[] = {"", "[M]", "[N]", "[M,N]"};
	return names[s];
}

Shape
shape_join(Shape a, Shape b)
{
	if (a == b)
		return a;
	if (a == SH_SCALAR)
		return b;
	if (b == SH_SCALAR)
		return a;
	return SH_TILE; /* [M] x [N], or either with [M,N] */
}

int
shape_has_n(Shape s)
{
	return s == SH_VEC || s == SH_TILE;
}

const OpInfo op_info[OP_COUNT] = {
    [OP_LOAD] = {"load", -1, 0},      [OP_GATHER] = {"gather", -1, 0},
    [OP_STORE] = {"store", -1, 0},    [OP_CAST] = {"cast", 1, 1},
    [OP_COL] = {"col", 0, 1},	      [OP_NEG] = {"neg", 1, 1},
    [OP_EXP] = {"exp", 1, 2},	      [OP_TANH] = {"tanh", 1, 20},
    [OP_ERF] = {"erf", 1, 24},	      [OP_POW] = {"pow", 2, 12},
    [OP_LOG] = {"log", 1, 2},	      [OP_SQRT] = {"sqrt", 1, 2},
    [OP_RSQRT] = {"rsqrt", 1, 1},     [OP_ABS] = {"abs", 1, 1},
    [OP_SIGMOID] = {"sigmoid", 1, 4}, [OP_SILU] = {"silu", 1, 5},
    [OP_ROUND] = {"round", 1, 1},     [OP_ADD] = {"add", 2, 1},
    [OP_SUB] = {"sub", 2, 1},	      [OP_MUL] = {"mul", 2, 1},
    [OP_DIV] = {"div", 2, 2},	      [OP_MAX] = {"max", 2, 1},
    [OP_MIN] = {"min", 2, 1},	      [OP_LT] = {"lt", 2, 1},
    [OP_LE] = {"le", 2, 1},	      [OP_GT] = {"gt", 2, 1},
    [OP_GE] = {"ge", 2, 1},	      [OP_EQ] = {"eq", 2, 1},
    [OP_NE] = {"ne", 2, 1},	      [OP_SELECT] = {"select", 3, 1},
    [OP_CLAMP] = {"clamp", 3, 2},     [OP_RSUM] = {"sum", 1, 1},
    [OP_RMAX] = {"max", 1, 1},	      [OP_RMIN] = {"min", 1, 1},
    [OP_WELFORD] = {"welford", 1, 6}, [OP_COLSUM] = {"colsum", 1, 1},
};

int
op_parse(const char *s, Op *op)
{
	/* "max" and "min" name both the binary op and the reduction; the operand count decides,
	 * so the parser asks for the binary one first and converts. */
	for (int i = 0; i < OP_COUNT; i++)
		if (strcmp(s, op_info[i].name) == 0 && i != OP_CAST) {
			*op = (Op)i;
			return 0;
		}
	return -1;
}

int
op_is_unary(Op op)
{
	return op >= OP_NEG && op <= OP_ROUND;
}

int
op_is_binary(Op op)
{
	return op >= OP_ADD && op <= OP_POW;
}

int
op_is_compare(Op op)
{
	return op >= OP_LT && op <= OP_NE;
}

int
op_is_reduce(Op op)
{
	return op >= OP_RSUM && op <= OP_WELFORD;
}

void
kernel_free(Kernel *k)
{
	if (k)
		arena_free(k->arena);
}

int
kernel_param(const Kernel *k, const char *name)
{
	for (int i = 0; i < k->nparams; i++)
		if (strcmp(k->params[i].name, name) == 0)
			return i;
	return -1;
}

Shape
arg_shape(const Kernel *k, const Arg *a)
{
	return a->kind == ARG_VAL ? k->vals[a->idx].shape : SH_SCALAR;
}

int
argval(const Instr *in, int i)
{
	return in->args[i].kind == ARG_VAL ? in->args[i].idx : -1;
}

int *
kernel_last_uses(const Kernel *k)
{
	int *last = malloc(sizeof(int) * (k->nvals + 1));
	if (!last)
		die_oom();
	for (int v = 0; v < k->nvals; v++)
		last[v] = k->vals[v].def;
	for (int i = 0; i < k->nins; i++)
		for (int a = 0; a < k->ins[i].nargs; a++)
			if (argval(&k->ins[i], a) >= 0)
				last[argval(&k->ins[i], a)] = i;
	return last;
}

Type
arg_type(const Kernel *k, const Arg *a)
{
	return a->kind == ARG_VAL ? k->vals[a->idx].type : TY_F32;
}

int
instr_is_colsum_store(const Kernel *k, const Instr *in)
{
	int v = in->op == OP_STORE ? argval(in, 0) : -1;
	return v >= 0 && k->ins[k->vals[v].def].op == OP_COLSUM;
}

int
kernel_colsum_outputs_only(const Kernel *k)
{
	int any = 0;
	for (int i = 0; i < k->nins; i++)
		if (k->ins[i].op == OP_STORE) {
			if (!instr_is_colsum_store(k, &k->ins[i]))
				return 0;
			any = 1;
		}
	return any;
}

int
kernel_colsums(const Kernel *k)
{
	int n = 0;
	for (int i = 0; i < k->nins; i++)
		n += k->ins[i].op == OP_COLSUM;
	return n;
}

int
dtype_parse(const char *s, Type *t)
{
	if (!strcmp(s, "bf16"))
		*t = TY_BF16;
	else if (!strcmp(s, "fp16") || !strcmp(s, "f16"))
		*t = TY_F16;
	else if (!strcmp(s, "fp32") || !strcmp(s, "f32"))
		*t = TY_F32;
	else
		return -1;
	return 0;
}
