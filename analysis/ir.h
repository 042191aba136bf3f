/* The reduction-kernel IR: every stage of rkc includes this one header. */
#ifndef RKC_IR_H
#define RKC_IR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RKC_VERSION "0.1.0"

/* Arena: everything a kernel owns lives in one, freed at once. */
typedef struct Arena Arena;
Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t n); /* zeroed, 16-byte aligned */
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);

/* Buf: a growable string, for printers and diagnostics. */
typedef struct {
	char *s;
	size_t len, cap;
} Buf;
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_puts(Buf *b, const char *s);
void buf_free(Buf *b);
/* Shortest %g form of d that reads back to the same double ("1e-06", "0.5", "inf"). */
void buf_double(Buf *b, double d);
/* JSON has no infinities: a param's default of inf or -inf is the string "inf" or "-inf" in
 * every JSON rkc writes (docs/ir.md). buf_json_double writes d so; inf_parse reads those two
 * strings, 0 on success. */
void buf_json_double(Buf *b, double d);
int inf_parse(const char *s, double *d);

/* Integer helpers for sizes; none overflows (np2 and pp2 for any n, cdiv where defined). */
int64_t cdiv(int64_t a, int64_t b); /* ceil(a / b) for a >= 0, b > 0 */
int64_t np2(int64_t n);		    /* smallest power of two >= n (at most 2^62); 1 for n <= 1 */
int64_t pp2(int64_t n);		    /* largest power of two <= n; 1 for n <= 1 */

/* Diag: the first error of a step, already formatted as "file:line:col: error: msg". */
typedef struct {
	char msg[512];
	int set;
} Diag;
typedef struct {
	int line, col; /* 1-based; 0 when not from a source file */
} Loc;
int diag_at(Diag *d, const char *file, Loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));				       /* returns -1 */
int diag(Diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3))); /* returns -1 */

/* The shapes every command supports (docs/ir.md, "Shapes on the command line"): 1 <= M <=
 * 2^31-1, so one row a CTA is a grid CUDA can launch (gridDim.x <= 2^31-1); 1 <= N <= 2^40,
 * codegen's bound on a row; M*N <= 2^60, so every byte of an [M,N] array of 8-byte elements has
 * a signed 64-bit offset, and the sizes the heuristics multiply stay inside int64_t. */
#define SHAPE_MAX_M INT32_MAX
#define SHAPE_MAX_N ((int64_t)1 << 40)
#define SHAPE_MAX_MN ((int64_t)1 << 60)
/* "MxN", or "BxLxN" for M = B*L rows: digits only, no spaces or signs. 0, or -1 with d set to
 * the one message for a bad shape, which says what is wrong and the supported range. */
int shape_parse(const char *s, int64_t *M, int64_t *N, Diag *d);
/* M and N inside the supported range: 0, or -1 with d set to the same message. */
int shape_check(int64_t M, int64_t N, Diag *d);

/* Element types. TY_T is the kernel's storage type, fixed at compile time by --dtype. The two
 * fp8 types are storage only (docs/ir.md, "fp8"): loads widen them to f32, stores and casts round
 * to them. */
typedef enum {
	TY_T,
	TY_F32,
	TY_BF16,
	TY_F16,
	TY_F8E4M3,
	TY_F8E5M2,
	TY_I64,
	TY_I32,
	TY_I8,
	TY_BOOL,
	TY_COUNT
} Type;
/* Shapes: M is the row (grid) axis, N the reduction axis. */
typedef enum { SH_SCALAR, SH_ROW, SH_VEC, SH_TILE } Shape; /* [], [M], [N], [M,N] */

const char *type_name(Type t);
int type_parse(const char *s, Type *t);	 /* 0 on success */
int dtype_parse(const char *s, Type *t); /* --dtype: bf16, fp16 or f16, fp32 or f32; 0 on success */
int type_size(Type t);			 /* bytes; TY_T has none (-1) */
int type_is_float(Type t);		 /* T, f32, bf16, f16, f8e4m3, f8e5m2 */
int type_is_int(Type t);		 /* i64, i32, i8 */
Type type_resolve(Type t, Type dtype);	 /* T -> dtype */
/* fp8 (docs/ir.md, "fp8"): x rounded to t (TY_F8E4M3 or TY_F8E5M2) to nearest, ties to even,
 * saturating: past the largest finite value (448, 57344), infinities included, gives it; a NaN
 * stays a NaN (0x7f with x's sign). f8_encode gives the byte, f8_decode its value, and f8_round
 * both. The lowering's conversion (codegen/lower_build.c) is the same function on f32. */
uint8_t f8_encode(Type t, double x);
double f8_decode(Type t, uint8_t b);
double f8_round(Type t, double x);
const char *shape_name(Shape s);    /* "", "[M]", "[N]", "[M,N]" */
Shape shape_join(Shape a, Shape b); /* broadcast: [M] x [N] -> [M,N] */
int shape_has_n(Shape s);	    /* [N] or [M,N]: an rdim-shaped value */

typedef enum { P_IN, P_OUT, P_PARAM } ParamKind;

typedef struct {
	const char *name;
	ParamKind kind;
	Type type;   /* P_PARAM: always f32 */
	Shape shape; /* P_PARAM: SH_SCALAR; P_IN/P_OUT: never scalar */
	double def;  /* P_PARAM: the default value */
	Loc loc;
} Param;

/* Ops. The comment gives operands -> result. "f" is any float, results of math are f32. */
typedef enum {
	OP_LOAD,   /* in-param -> its type and shape */
	OP_GATHER, /* in-param [M,N], int [M] -> [M] x[row, idx[row]] */
	OP_STORE,  /* out-param, value -> nothing (float values convert to the param's type) */
	OP_CAST,   /* v -> to; float->int truncates toward zero and saturates */
	OP_COL,	   /* no operands -> [N] i64, each element's column 0..N-1 */
	OP_NEG,	   /* unary, f -> f32 */
	OP_EXP,
	OP_LOG,
	OP_SQRT,
	OP_RSQRT,
	OP_ABS,
	OP_SIGMOID,
	OP_SILU,
	OP_TANH,
	OP_ERF,
	OP_ROUND, /* to nearest, ties to even */
	OP_ADD,	  /* binary, f f -> f32, broadcasting */
	OP_SUB,
	OP_MUL,
	OP_DIV,
	OP_MAX,
	OP_MIN,
	OP_POW, /* x^y, C's pow (docs/ir.md) */
	OP_LT,	/* compare, f f or int int -> bool */
	OP_LE,
	OP_GT,
	OP_GE,
	OP_EQ,
	OP_NE,
	OP_SELECT, /* bool, f, f -> f32 */
	OP_CLAMP,  /* f, lo, hi -> f32 */
	OP_RSUM,   /* reductions along N: [M,N] -> [M] f32 */
	OP_RMAX,
	OP_RMIN,
	OP_WELFORD, /* [M,N] -> count, mean, m2 (three [M] f32 results) */
	OP_COLSUM,  /* the reduction over rows: [M,N] f -> [N] f32, only ever stored */
	OP_COUNT
} Op;

typedef struct {
	const char *name; /* as written in .rk */
	int nargs;	  /* operands, -1 for load/gather/store which also name a param */
	/* instructions an element its lowering emits on f32 values (codegen/lower_build.c, as the
	 * PTX shows them): 1 for an add, a compare or a reduction's step; exp and log a scaling
	 * multiply and the MUFU op, division div.approx's reciprocal and multiply, tanh and erf
	 * both their branches (a polynomial and the exponential form); load, gather, store and
	 * cast depend on the types (analysis/facts.c, op_cost) */
	int ops;
} OpInfo;
extern const OpInfo op_info[OP_COUNT];
int op_parse(const char *s,
	     Op *op); /* 0 on success; "sum" -> OP_RSUM, "cast.i8" is not an op name */
int op_is_unary(Op op);
int op_is_binary(Op op);  /* arithmetic binary, not compares */
int op_is_compare(Op op); /* on two floats, or two integers compared exactly */
int op_is_reduce(Op op);  /* sum, max, min, welford: along N, one result a row */

/* An operand: an SSA value, a scalar param, a literal, or the row length N. */
typedef enum { ARG_VAL, ARG_PARAM, ARG_IMM, ARG_N } ArgKind;
typedef struct {
	ArgKind kind;
	int idx;    /* ARG_VAL: value id; ARG_PARAM: param index */
	double imm; /* ARG_IMM */
	Loc loc;
} Arg;

#define MAX_ARGS 3
#define MAX_RES 3

typedef struct {
	Op op;
	int param; /* load, gather, store: the param index; else -1 */
	Type to;   /* cast: the target type */
	int nres;
	int res[MAX_RES]; /* value ids; -1 for a result discarded with "_" */
	int nargs;
	Arg args[MAX_ARGS];
	Loc loc;
	int src; /* its index as written: order_stores (analysis/order.c) may move a store up */
} Instr;

typedef struct {
	const char *name; /* without the % */
	Type type;
	Shape shape;
	int def; /* index of the defining instruction */
} Value;

typedef struct {
	const char *name;
	const char *doc;  /* the comment before "kernel", without "# "; may be NULL */
	const char *file; /* for diagnostics */
	Param *params;
	int nparams;
	Value *vals;
	int nvals;
	Instr *ins;
	int nins;
	const struct Plan *plan; /* the pass plan (analysis/plan.c), set by kernel_verify */
	Arena *arena;		 /* owns everything above */
} Kernel;

void kernel_free(Kernel *k);			     /* frees the arena */
int kernel_param(const Kernel *k, const char *name); /* index or -1 */
Shape arg_shape(const Kernel *k, const Arg *a);
int argval(const Instr *in, int i); /* the value operand i names, or -1 */
/* last[v]: the index of v's last use, or its definition when unused; malloc'd, the caller frees. */
int *kernel_last_uses(const Kernel *k);
Type arg_type(const Kernel *k, const Arg *a);
/* A store of a colsum's result (into an [N] output): done once, after every row, not per row. */
int instr_is_colsum_store(const Kernel *k, const Instr *in);
/* The kernel's colsum instructions. */
int kernel_colsums(const Kernel *k);
/* Whether every store of the kernel is a colsum's (a bias's gradient): its rows store nothing. */
int kernel_colsum_outputs_only(const Kernel *k);

/* Size limits (docs/ir.md, "Limits"): far above real reduction kernels (the 20 in
 * testdata/kernels have at most 32 instructions and 9 params), low enough that explain and
 * compile stay within seconds at the limit. 64 params of 8 bytes, with M and N, stay far inside
 * CUDA's 4 KiB of kernel parameters, and each has its bit in the facts' 64-bit load masks. */
#define MAX_INSTRS 512
#define MAX_PARAMS 64
/* 0, or -1 with d set, at loc in file, when nparams or nins is over its limit. The verifier
 * checks every kernel; the builder checks as a kernel grows, so that an oversized file fails
 * at the first declaration or statement over the limit instead of after reading it all. */
int kernel_limits(const char *file, Loc loc, int nparams, int nins, Diag *d);
/* Verifier: checks the limits, infers each value's type and shape, then checks types, shapes,
 * use before def, every output written exactly once, every input read, no unused values; then
 * plans the passes (k->plan). */
int kernel_verify(Kernel *k, Diag *d);
/* Printer: text that parses back to the same kernel. */
void kernel_print(Buf *b, const Kernel *k);

#endif
