/* A kernel generator for the fuzz targets: random kernels from the IR's grammar, mostly valid. */
#ifndef RKC_TESTS_GEN_H
#define RKC_TESTS_GEN_H

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "analysis/ir.h"

/* Choices come from the fuzzer's bytes (or a seeded stream); past the end every choice is 0. */
typedef struct {
	const uint8_t *p;
	size_t n;
	uint64_t seed; /* used when p is NULL: a xorshift stream */
	/* Kernels whose results stay finite and well scaled on the runtime's inputs, to be checked
	 * against the float64 reference on the GPU: no infinite literals, exp of a clamped value,
	 * log, sqrt, rsqrt and division of |x| + 1, sum(exp(t - max t)), outputs clamped. */
	int finite;
} GenSrc;

static inline unsigned
gen_pick(GenSrc *s, unsigned n)
{
	unsigned v;
	if (s->p) {
		v = s->n ? *s->p : 0;
		s->p += s->n > 0;
		s->n -= s->n > 0;
	} else {
		s->seed ^= s->seed << 13;
		s->seed ^= s->seed >> 7;
		s->seed ^= s->seed << 17;
		v = (unsigned)(s->seed >> 24);
	}
	return n ? v % n : 0;
}

#define GEN_MAXV 96

typedef struct {
	Shape sh;
	int is_bool; /* a compare's result: only select takes it */
	int is_int;  /* an index (col, a gather's): only a compare or a cast takes it */
	int used;
	int def; /* line index of its definition */
} GenVal;

typedef struct {
	GenSrc *s;
	GenVal v[GEN_MAXV];
	int nv;
	char lines[GEN_MAXV + 16][96];
	int nlines;
	int nparams; /* scalar params p0..: usable as operands */
} Gen;

static inline const char *
gen_shape(Shape s)
{
	return s == SH_TILE ? "[M,N]" : s == SH_ROW ? "[M]" : "[N]";
}

/* A float value (or a bool one when want_bool), preferring unused ones; -1 when none. */
static inline int
gen_value(Gen *g, int want_bool, int need_tile)
{
	int c[GEN_MAXV], n = 0;
	for (int i = 0; i < g->nv; i++)
		if (g->v[i].is_bool == want_bool && !g->v[i].is_int &&
		    (!need_tile || g->v[i].sh == SH_TILE))
			c[n++] = i;
	if (!n)
		return -1;
	int i = c[gen_pick(g->s, n)];
	for (int j = 0; j < n && g->v[i].used && gen_pick(g->s, 2); j++)
		i = c[(j + 1) % n];
	return i;
}

/* An operand: a value (the usual case), a literal, a scalar param or N; sets *sh. Returns the
 * value's index, or -1; the caller marks it used once the line that uses it is written. */
static inline int
gen_operand(Gen *g, char *out, size_t cap, Shape *sh)
{
	static const char *const lits[] = {"0", "1", "0.5", "-2", "1e-06", "127", "-inf", "3.5"};
	unsigned k = gen_pick(g->s, 10);
	int v = k < 7 ? gen_value(g, 0, 0) : -1;
	if (v >= 0) {
		*sh = g->v[v].sh;
		snprintf(out, cap, "%%v%d", v);
	} else if (k == 8 && g->nparams) {
		*sh = SH_SCALAR;
		snprintf(out, cap, "p%u", gen_pick(g->s, (unsigned)g->nparams));
	} else if (k == 9) {
		*sh = SH_SCALAR;
		snprintf(out, cap, "N");
	} else {
		*sh = SH_SCALAR;
		snprintf(out, cap, "%s", lits[gen_pick(g->s, g->s->finite ? 6 : 8)]);
	}
	return v;
}

static inline void
gen_use(Gen *g, const int *v, int n)
{
	for (int i = 0; i < n; i++)
		if (v[i] >= 0)
			g->v[v[i]].used = 1;
}

static inline Shape
gen_join(Shape a, Shape b)
{
	if (a == SH_SCALAR)
		return b;
	if (b == SH_SCALAR || a == b)
		return a;
	return SH_TILE;
}

static inline int
gen_new(Gen *g, Shape sh, int is_bool)
{
	int i = g->nv++;
	g->v[i] = (GenVal){sh, is_bool, 0, 0, g->nlines};
	return i;
}

/* Appends a body line; a value made by gen_new just before is defined by it. */
static inline void __attribute__((format(printf, 2, 3))) gen_line(Gen *g, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(g->lines[g->nlines++], sizeof g->lines[0], fmt, ap);
	va_end(ap);
}

/* |a| + 1 (a a value of shape sh): a positive operand for log, sqrt and division in
 * finite kernels. Returns its value. */
static inline int
gen_plus_one(Gen *g, const char *a, Shape sh)
{
	int r = gen_new(g, sh, 0);
	g->v[r].used = 1;
	gen_line(g, "%%v%d = abs %s", r, a);
	int q = gen_new(g, g->v[r].sh, 0);
	g->v[q].used = 1;
	gen_line(g, "%%v%d = add %%v%d, 1", q, r);
	return q;
}

/* Whether a failed compile's message is the driver's refusal of a sum over rows (colsum) with
 * no config: under helion2828, or a row too wide for registers with partials too wide for shared
 * memory (driver.c stage_validate). The harnesses take those as answers, every other failure of
 * a policy's own pick as a bug. */
static inline int
gen_colsum_refusal(int ncolsum, const char *msg)
{
	return ncolsum && strstr(msg, "a sum over rows (colsum)") != NULL;
}

/* Whether a failed compile's message is the batch-invariant mode's refusal of a shape whose
 * fixed order cannot be launched: the order cuts a row over K CTAs (from N alone), and M x K
 * CTAs pass a grid's 2^31-1 (heuristics/rkc_invariant.c, invariant_cands). The harnesses take it as
 * an answer. */
static inline int
gen_invariant_refusal(int batch_invariant, const char *msg)
{
	return batch_invariant && strstr(msg, "batch-invariant: no config at M = ") != NULL &&
	       strstr(msg, "exceeds 2^31-1") != NULL;
}

/* Writes one kernel as .rk text into b (NUL-terminated; cap at least 16384 bytes). */
static inline void
gen_kernel(GenSrc *s, char *b, size_t cap)
{
	static const char *const ftypes[] = {"T", "T", "T", "f32", "bf16", "f16", "f8e4m3"};
	static const char *const unary[] = {"neg", "exp",	"log",	   "sqrt",  "rsqrt",
					    "abs", "sigmoid",	"silu",	   "round", "tanh",
					    "erf", "cast.bf16", "cast.f16"};
	static const char *const binary[] = {"add", "sub", "mul", "div", "max", "min", "pow"};
	static const char *const cmp[] = {"lt", "le", "gt", "ge", "eq", "ne"};
	static const char *const red[] = {"sum", "max", "min"};
	Gen g = {.s = s};
	size_t n = 0;
	n += snprintf(b + n, cap - n, "kernel fuzz\n");
	int nin = 1 + (int)gen_pick(s, 3), gather = gen_pick(s, 5) == 0, label = -1;
	for (int i = 0; i < nin; i++) {
		Shape sh = i == 0 ? SH_TILE : (Shape[]){SH_TILE, SH_VEC, SH_ROW}[gen_pick(s, 3)];
		n += snprintf(b + n, cap - n, "in x%d: %s%s\n", i, ftypes[gen_pick(s, 7)],
			      gen_shape(sh));
		int v = gen_new(&g, sh, 0);
		gen_line(&g, "%%v%d = load x%d", v, i);
	}
	if (gather) {
		n += snprintf(b + n, cap - n, "in idx: %s[M]\n", gen_pick(s, 2) ? "i64" : "i32");
		int iv = gen_new(&g, SH_ROW, 1); /* an integer: no arithmetic takes it */
		g.v[iv].used = g.v[iv].is_int = 1;
		gen_line(&g, "%%v%d = load idx", iv);
		label = iv; /* a column in [0, N) on the runtime's inputs */
		int xv = gen_new(&g, SH_ROW, 0);
		gen_line(&g, "%%v%d = gather x0, %%v%d", xv, iv);
	}
	g.nparams = (int)gen_pick(s, 3);
	for (int i = 0; i < g.nparams; i++)
		n += snprintf(
		    b + n, cap - n, "param p%d = %s\n", i,
		    (const char *[]){"1e-06", "0.5", "2", "-inf"}[gen_pick(s, s->finite ? 3 : 4)]);
	int nops = 1 + (int)gen_pick(s, 24);
	for (int k = 0; k < nops && g.nv < GEN_MAXV - 4; k++) {
		char a[32], c[32], d[32];
		Shape sa, sc, sd;
		int r, u[3];
		switch (gen_pick(s, 9)) {
		case 0:
		case 1:
			u[0] = gen_operand(&g, a, sizeof a, &sa);
			if (sa == SH_SCALAR)
				break;
			const char *op = unary[gen_pick(s, 13)];
			if (s->finite && (!strcmp(op, "exp") || !strcmp(op, "cast.f16"))) {
				/* exp's result, and an f16 one (65504 at most), stay finite */
				int f16 = !strcmp(op, "cast.f16");
				r = gen_new(&g, sa, 0);
				gen_line(&g, "%%v%d = clamp %s, %s", r, a,
					 f16 ? "-30000, 30000" : "-4, 4");
				snprintf(a, sizeof a, "%%v%d", r);
				g.v[r].used = 1;
			} else if (s->finite && strstr("log sqrt rsqrt", op)) {
				r = gen_plus_one(&g, a, sa);
				snprintf(a, sizeof a, "%%v%d", r);
			}
			r = gen_new(&g, sa, 0);
			gen_line(&g, "%%v%d = %s %s", r, op, a);
			gen_use(&g, u, 1);
			break;
		case 2:
		case 3:
			u[0] = gen_operand(&g, a, sizeof a, &sa);
			u[1] = gen_operand(&g, c, sizeof c, &sc);
			if (gen_join(sa, sc) == SH_SCALAR)
				break;
			const char *bop = binary[gen_pick(s, 7)];
			if (s->finite && !strcmp(bop, "div") && sc == SH_SCALAR)
				snprintf(c, sizeof c, "2");
			else if (s->finite && !strcmp(bop, "div")) {
				r = gen_plus_one(&g, c, sc);
				snprintf(c, sizeof c, "%%v%d", r);
			} else if (s->finite && !strcmp(bop, "pow")) { /* (|a| + 1)^[-2, 2] */
				if (sa != SH_SCALAR) {
					r = gen_plus_one(&g, a, sa);
					snprintf(a, sizeof a, "%%v%d", r);
				} else
					snprintf(a, sizeof a, "1.5");
				if (sc != SH_SCALAR) {
					r = gen_new(&g, sc, 0);
					g.v[r].used = 1;
					gen_line(&g, "%%v%d = clamp %s, -2, 2", r, c);
					snprintf(c, sizeof c, "%%v%d", r);
				} else
					snprintf(c, sizeof c, "0.5");
			}
			r = gen_new(&g, gen_join(sa, sc), 0);
			gen_line(&g, "%%v%d = %s %s, %s", r, bop, a, c);
			gen_use(&g, u, 2);
			break;
		case 4: /* a compare feeding a select */
			u[0] = gen_operand(&g, a, sizeof a, &sa);
			u[1] = gen_operand(&g, c, sizeof c, &sc);
			u[2] = gen_operand(&g, d, sizeof d, &sd);
			if (gen_join(sa, sc) == SH_SCALAR ||
			    gen_join(gen_join(sa, sc), sd) == SH_SCALAR)
				break;
			r = gen_new(&g, gen_join(sa, sc), 1);
			g.v[r].used = 1;
			gen_line(&g, "%%v%d = %s %s, %s", r, cmp[gen_pick(s, 6)], a, c);
			int y = gen_new(&g, gen_join(gen_join(sa, sc), sd), 0);
			gen_line(&g, "%%v%d = select %%v%d, %s, %s", y, r, a, d);
			gen_use(&g, u, 3);
			break;
		case 5:
			u[0] = gen_operand(&g, a, sizeof a, &sa);
			if (sa == SH_SCALAR)
				break;
			r = gen_new(&g, sa, 0);
			gen_line(&g, "%%v%d = clamp %s, -4, 4", r, a);
			gen_use(&g, u, 1);
			break;
		case 6: { /* the column index: compared with a label, or a float */
			int j = gen_new(&g, SH_VEC, 1);
			g.v[j].used = g.v[j].is_int = 1;
			gen_line(&g, "%%v%d = col", j);
			if (label >= 0 && gen_pick(s, 2)) {
				u[0] = gen_operand(&g, a, sizeof a, &sa);
				r = gen_new(&g, SH_TILE, 1);
				g.v[r].used = 1;
				gen_line(&g, "%%v%d = eq %%v%d, %%v%d", r, j, label);
				int y = gen_new(&g, SH_TILE, 0);
				gen_line(&g, "%%v%d = select %%v%d, %s, 0", y, r, a);
				gen_use(&g, u, 1);
			} else {
				r = gen_new(&g, SH_VEC, 0);
				gen_line(&g, "%%v%d = cast.f32 %%v%d", r, j);
			}
			break;
		}
		default: { /* a reduction, the point of the kernel */
			int v = gen_value(&g, 0, 1);
			if (v < 0)
				break;
			g.v[v].used = 1;
			if (gen_pick(s, 6) == 0) {
				r = gen_new(&g, SH_ROW, 0);
				gen_new(&g, SH_ROW, 0);
				gen_new(&g, SH_ROW, 0);
				gen_line(&g, "%%v%d, %%v%d, %%v%d = welford %%v%d", r, r + 1, r + 2,
					 v);
			} else if (gen_pick(s, 3) ==
				   0) { /* the online pattern: sum(exp(t - max)) */
				int m = gen_new(&g, SH_ROW, 0);
				gen_line(&g, "%%v%d = max %%v%d", m, v);
				int t = s->finite ? v : gen_value(&g, 0, 1);
				g.v[m].used = g.v[t].used = 1;
				int dv = gen_new(&g, SH_TILE, 0);
				g.v[dv].used = 1;
				gen_line(&g, "%%v%d = sub %%v%d, %%v%d", dv, t, m);
				int ev = gen_new(&g, SH_TILE, 0);
				g.v[ev].used = 1;
				gen_line(&g, "%%v%d = exp %%v%d", ev, dv);
				r = gen_new(&g, SH_ROW, 0);
				gen_line(&g, "%%v%d = sum %%v%d", r, ev);
			} else {
				r = gen_new(&g, SH_ROW, 0);
				gen_line(&g, "%%v%d = %s %%v%d", r, red[gen_pick(s, 3)], v);
			}
		}
		}
	}
	/* outputs: one to three unused values (or any value) stored whole */
	int nout = 1 + (int)gen_pick(s, 3), stored[GEN_MAXV] = {0};
	for (int o = 0; o < nout; o++) {
		int v = -1;
		for (int i = g.nv - 1; i >= 0 && v < 0; i--)
			if (!g.v[i].used && !g.v[i].is_bool && !stored[i])
				v = i;
		if (v < 0)
			v = gen_value(&g, 0, 0);
		if (v < 0 || stored[v])
			continue;
		stored[v] = 1;
		g.v[v].used = 1;
		unsigned t = gen_pick(s, 5);
		const char *ty = "T";
		if (t == 0 || (t == 1 && g.v[v].sh == SH_ROW))
			ty = "f32";
		else if (t == 4) /* fp8: the store rounds and saturates */
			ty = gen_pick(s, 2) ? "f8e4m3" : "f8e5m2";
		if (t == 3 && g.nv < GEN_MAXV) { /* a quantized output */
			n += snprintf(b + n, cap - n, "out y%d: i8%s\n", o, gen_shape(g.v[v].sh));
			int q = gen_new(&g, g.v[v].sh, 1); /* an integer, like a bool */
			g.v[q].used = 1;
			gen_line(&g, "%%v%d = cast.i8 %%v%d", q, v);
			gen_line(&g, "store y%d, %%v%d", o, q);
		} else {
			n += snprintf(b + n, cap - n, "out y%d: %s%s\n", o, ty,
				      gen_shape(g.v[v].sh));
			if (s->finite && g.nv < GEN_MAXV) { /* within f16's range */
				int q = gen_new(&g, g.v[v].sh, 0);
				g.v[q].used = 1;
				gen_line(&g, "%%v%d = clamp %%v%d, -30000, 30000", q, v);
				v = q;
			}
			gen_line(&g, "store y%d, %%v%d", o, v);
		}
	}
	/* now and then a sum over rows of an [M,N] value, into an [N] f32 output */
	if (gen_pick(s, 5) == 0 && g.nv < GEN_MAXV) {
		int v = -1;
		for (int i = g.nv - 1; i >= 0 && v < 0; i--)
			if (g.v[i].sh == SH_TILE && !g.v[i].is_bool)
				v = i;
		if (v >= 0) {
			g.v[v].used = 1;
			int c = gen_new(&g, SH_VEC, 0);
			g.v[c].used = 1;
			n += snprintf(b + n, cap - n, "out ycol: f32%s\n", gen_shape(SH_VEC));
			gen_line(&g, "%%v%d = colsum %%v%d", c, v);
			gen_line(&g, "store ycol, %%v%d", c);
		}
	}
	/* a value nothing uses is discarded: its result becomes _ */
	for (int i = 0; i < g.nv; i++)
		if (!g.v[i].used) {
			char tag[16];
			int len = snprintf(tag, sizeof tag, "%%v%d", i);
			char *L = g.lines[g.v[i].def];
			char *p = strstr(L, tag);
			while (p && (p[len] >= '0' && p[len] <= '9'))
				p = strstr(p + 1, tag);
			if (p && p < strchr(L, '=')) {
				memmove(p + 1, p + len, strlen(p + len) + 1);
				*p = '_';
			}
		}
	for (int i = 0; i < g.nlines && n < cap; i++)
		n += snprintf(b + n, cap - n, "%s\n", g.lines[i]);
}

#endif
