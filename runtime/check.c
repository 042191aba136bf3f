/* Checking a GPU result: sampled rows, the float64 reference on them, tolerances, comparison. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

/* Above this many elements the interpreter sees a sample of rows, not the whole tensor. */
#define WHOLE_MAX_ELEMS ((int64_t)1 << 22)
#define SAMPLE_ROWS 256
#define REF_CHUNK_ELEMS ((int64_t)1 << 20)

int64_t
sample_rows(const Kernel *k, int64_t M, int64_t N, int64_t **rows)
{
	int whole = M <= SAMPLE_ROWS || M * N <= WHOLE_MAX_ELEMS || k->plan->ncolsum;
	int64_t n = whole ? M : SAMPLE_ROWS;
	*rows = malloc(sizeof(int64_t) * (size_t)n);
	for (int64_t i = 0; i < n; i++)
		(*rows)[i] = n == M ? i : i * (M - 1) / (n - 1);
	return n;
}

/* A sum over rows is summed in row groups, each over its own rows into a partial of its own, the
 * partials then added in group order: the group count follows the rows and N alone, never the
 * threads, so the reference's bits do not depend on the machine. At most REF_GROUPS, of at least
 * one interpreter call's rows each, and within REF_GROUP_DOUBLES of partials and scratch. */
#define REF_GROUPS 64
#define REF_GROUP_DOUBLES ((int64_t)1 << 25)

typedef struct {
	const Kernel *k;
	double **packed;
	int64_t N;
	Diag *diags; /* one per range; ranges are found by their start row */
	int64_t nrows;
	int *failed;
	int64_t groups; /* row groups of a sum over rows (1 without one) */
	/* [g * nparams + p]: group g's sum for colsum output p; [(groups + g) * nparams + p]: its
	 * scratch row */
	double **partial;
} Ref;

/* Rows lo..hi of the reference; a colsum output's rows go to scratch[p] a call at a time and are
 * added to sum[p]. */
static void
ref_rows(Ref *r, int64_t lo, int64_t hi, double **sum, double **scratch)
{
	const Kernel *k = r->k;
	/* The interpreter holds every value of the body at once: bound the rows per call. */
	int64_t step = REF_CHUNK_ELEMS / r->N > 1 ? REF_CHUNK_ELEMS / r->N : 1;
	for (int64_t at = lo; at < hi; at += step) {
		int64_t n = hi - at < step ? hi - at : step;
		double *bufs[64];
		for (int p = 0; p < k->nparams; p++) {
			Shape s = k->params[p].shape;
			bufs[p] = scratch && scratch[p] ? scratch[p]
							: r->packed[p] + (s == SH_TILE	? at * r->N
									  : s == SH_ROW ? at
											: 0);
		}
		Diag d = {0};
		if (interp_run(k, n, r->N, bufs, &d)) {
			/* Report the first failing range: the same message whatever the threads. */
			r->failed[lo] = 1;
			r->diags[lo] = d;
			return;
		}
		for (int p = 0; scratch && p < k->nparams; p++)
			for (int64_t j = 0; scratch[p] && j < r->N; j++)
				sum[p][j] += scratch[p][j];
	}
}

static void
ref_range(void *ctx, int64_t lo, int64_t hi)
{
	ref_rows(ctx, lo, hi, NULL, NULL);
}

static void
ref_groups(void *ctx, int64_t lo, int64_t hi)
{
	Ref *r = ctx;
	int np = r->k->nparams;
	for (int64_t g = lo; g < hi; g++)
		ref_rows(r, r->nrows * g / r->groups, r->nrows * (g + 1) / r->groups,
			 r->partial + g * np, r->partial + (r->groups + g) * np);
}

/* The row groups of a sum over rows and their partials (zeroed) and scratch rows: 0 when out of
 * memory. */
static int
ref_partials(Ref *r)
{
	const Kernel *k = r->k;
	int np = k->nparams;
	int ncol = 0; /* the outputs a colsum is stored into */
	for (int i = 0; i < k->nins; i++)
		ncol += instr_is_colsum_store(k, &k->ins[i]);
	int64_t step = REF_CHUNK_ELEMS / r->N > 1 ? REF_CHUNK_ELEMS / r->N : 1;
	int64_t g = (r->nrows + step - 1) / step,
		cap = REF_GROUP_DOUBLES / (2 * r->N * (ncol ? ncol : 1));
	g = g < REF_GROUPS ? g : REF_GROUPS;
	g = g < cap ? g : cap;
	r->groups = g > 1 ? g : 1;
	r->partial = calloc((size_t)(2 * r->groups * np), sizeof(double *));
	if (!r->partial)
		return 0;
	for (int i = 0; i < k->nins; i++)
		if (instr_is_colsum_store(k, &k->ins[i]))
			for (int64_t j = 0; j < 2 * r->groups; j++) {
				double **q = &r->partial[j * np + k->ins[i].param];
				if (!*q && !(*q = calloc((size_t)r->N, sizeof(double))))
					return 0;
			}
	return 1;
}

static void
ref_partials_free(Ref *r)
{
	for (int64_t j = 0; r->partial && j < 2 * r->groups * r->k->nparams; j++)
		free(r->partial[j]);
	free(r->partial);
}

int
reference_rows(double **ref, const Kernel *k, const Tensor *ts, int64_t M, int64_t N,
	       const int64_t *rows, int64_t nrows, Diag *d)
{
	if (k->nparams > 64)
		return diag(d, "%s: too many params for the reference run", k->name);
	double *packed[64] = {0};
	for (int p = 0; p < k->nparams; p++) {
		const Param *pa = &k->params[p];
		int64_t n = shape_count(pa->shape, nrows, N);
		packed[p] = malloc(sizeof(double) * (size_t)(n ? n : 1));
		if (!packed[p]) {
			for (int q = 0; q < p; q++)
				free(packed[q]);
			return diag(d, "out of memory for the reference run");
		}
		if (pa->kind == P_OUT)
			continue;
		const Tensor *t = &ts[p];
		if (pa->shape == SH_TILE) {
			for (int64_t i = 0; i < nrows; i++)
				for (int64_t c = 0; c < N; c++)
					packed[p][i * N + c] =
					    elem_get(t->type, t->data, rows[i] * N + c);
		} else if (pa->shape == SH_ROW) {
			for (int64_t i = 0; i < nrows; i++)
				packed[p][i] = elem_get(t->type, t->data, rows[i]);
		} else {
			for (int64_t i = 0; i < n; i++)
				packed[p][i] = elem_get(t->type, t->data, i);
		}
	}
	Ref r = {.k = k,
		 .packed = packed,
		 .N = N,
		 .diags = calloc((size_t)nrows + 1, sizeof(Diag)),
		 .nrows = nrows,
		 .failed = calloc((size_t)nrows + 1, sizeof(int)),
		 .groups = 1};
	if (!k->plan->ncolsum) {
		parallel_for(nrows, ref_range, &r);
	} else if (!ref_partials(&r)) {
		ref_partials_free(&r);
		for (int p = 0; p < k->nparams; p++)
			free(packed[p]);
		free(r.diags);
		free(r.failed);
		return diag(d, "out of memory for the reference run");
	} else {
		/* each group's sum over its rows, then the groups' sums in order */
		parallel_for(r.groups, ref_groups, &r);
		for (int p = 0; p < k->nparams; p++) {
			if (!r.partial[p])
				continue;
			memset(packed[p], 0, sizeof(double) * (size_t)N);
			for (int64_t g = 0; g < r.groups; g++)
				for (int64_t j = 0; j < N; j++)
					packed[p][j] += r.partial[g * k->nparams + p][j];
		}
		ref_partials_free(&r);
	}
	int rc = 0;
	for (int64_t i = 0; i < nrows && !rc; i++)
		if (r.failed[i]) {
			*d = r.diags[i];
			rc = -1;
		}
	free(r.diags);
	free(r.failed);
	for (int p = 0; p < k->nparams; p++) {
		ref[p] = NULL;
		if (k->params[p].kind == P_OUT && !rc)
			ref[p] = packed[p];
		else
			free(packed[p]);
	}
	return rc;
}

static int
tol_of(double *tol, json_t *o, Type dtype)
{
	json_t *j = json_object_get(o, type_name(dtype));
	if (!json_is_number(j))
		return -1;
	*tol = json_number_value(j);
	return 0;
}

Type
check_dtype(const Kernel *k, Type dtype)
{
	Type t = TY_F32;
	for (int p = 0; p < k->nparams; p++) {
		Type a = type_resolve(k->params[p].type, dtype);
		if (k->params[p].kind != P_PARAM && (a == TY_BF16 || (a == TY_F16 && t == TY_F32)))
			t = a;
	}
	return t;
}

int
tolerance(double *tol, const char *kernel, int out_index, Type dtype, const char *file,
	  const char *text, Diag *d)
{
	json_error_t err;
	json_t *root = json_loads(text, 0, &err);
	if (!root)
		return diag_at(d, file, (Loc){err.line, err.column}, "%s", err.text);
	json_t *mine = json_object_get(json_object_get(root, "kernels"), kernel);
	int rc = 0;
	if ((out_index != 0 || tol_of(tol, json_object_get(mine, "first_output"), dtype)) &&
	    tol_of(tol, mine, dtype) && tol_of(tol, json_object_get(root, "default"), dtype))
		rc = diag_at(d, file, (Loc){0}, "no tolerance for %s at %s", kernel,
			     type_name(dtype));
	json_decref(root);
	return rc;
}

/* The whole-output scan runs in chunks across threads: outputs reach billions of elements. */
#define SCAN_CHUNKS 256

typedef struct {
	Type t;
	const char *a, *b;
	int64_t count;
	int64_t nonfinite[SCAN_CHUNKS], unwritten[SCAN_CHUNKS];
} Scan;

static void
scan_chunks(void *ctx, int64_t lo, int64_t hi)
{
	Scan *s = ctx;
	size_t es = (size_t)type_size(s->t);
	int is_float = type_is_float(s->t);
	for (int64_t c = lo; c < hi; c++) {
		int64_t end = s->count * (c + 1) / SCAN_CHUNKS;
		for (int64_t i = s->count * c / SCAN_CHUNKS; i < end; i++) {
			if (memcmp(s->a + i * es, s->b + i * es, es))
				s->unwritten[c]++;
			if (is_float && !isfinite(elem_get(s->t, s->a, i)))
				s->nonfinite[c]++;
		}
	}
}

/* r rounded to t, as a store of it to an output of type t would round it. */
static double
in_type(Type t, double r)
{
	unsigned char b[8];
	elem_set(t, b, 0, r);
	return elem_get(t, b, 0);
}

static int
same_nonfinite(double o, double r)
{
	return (isnan(o) && isnan(r)) || (isinf(o) && o == r);
}

void
check_output(Check *c, Type t, const void *run1, const void *run2, int64_t count, int64_t cols,
	     const int64_t *rows, int64_t nrows, const double *ref, double tol)
{
	Scan *s = calloc(1, sizeof *s);
	*s = (Scan){.t = t, .a = run1, .b = run2, .count = count};
	parallel_for(SCAN_CHUNKS, scan_chunks, s);
	c->type = t;
	c->is_int = !type_is_float(t);
	c->count = count;
	c->nonfinite = c->unwritten = 0;
	for (int i = 0; i < SCAN_CHUNKS; i++) {
		c->nonfinite += s->nonfinite[i];
		c->unwritten += s->unwritten[i];
	}
	free(s);
	double num = 0, den = 0, worst = 0;
	c->as_ref = 0;
	for (int64_t i = 0; i < nrows; i++)
		for (int64_t j = 0; j < cols; j++) {
			double o = elem_get(t, run1, rows[i] * cols + j), r = ref[i * cols + j];
			double rt = in_type(t, r);
			if (!isfinite(o) && same_nonfinite(o, rt)) {
				c->as_ref++; /* the true value is past t's range, or NaN itself */
				continue;
			}
			/* the best a store to t holds: a true value under t's least subnormal is 0
			 * there (an f32 sigmoid(-300), an f16 1e-8), and only the rounded one is
			 * a fair denominator; kept where it rounds past t's range */
			if (isfinite(rt))
				r = rt;
			double diff = fabs(o - r);
			num += diff * diff;
			den += r * r;
			/* NaN must win the max, or a NaN row could hide behind a finite one. */
			if (diff > worst || isnan(diff))
				worst = isnan(worst) ? worst : diff;
		}
	if (c->is_int) {
		c->err = worst;
		c->tol = 1;
	} else {
		c->err = den > 0 ? sqrt(num / den) : sqrt(num);
		c->tol = tol;
	}
	c->pass = c->err <= c->tol && c->nonfinite == c->as_ref && c->unwritten == 0;
}

void
rows_pad(void *dst, const void *src, int64_t rows, int64_t cols, int64_t stride, size_t size,
	 unsigned char poison)
{
	for (int64_t r = 0; r < rows; r++) {
		char *d = (char *)dst + (size_t)(r * stride) * size;
		memcpy(d, (const char *)src + (size_t)(r * cols) * size, (size_t)cols * size);
		memset(d + (size_t)cols * size, poison, (size_t)(stride - cols) * size);
	}
}

int64_t
rows_unpad(void *dst, const void *src, int64_t rows, int64_t cols, int64_t stride, size_t size,
	   unsigned char poison)
{
	int64_t written = 0;
	for (int64_t r = 0; r < rows; r++) {
		const unsigned char *s = (const unsigned char *)src + (size_t)(r * stride) * size;
		memcpy((char *)dst + (size_t)(r * cols) * size, s, (size_t)cols * size);
		for (int64_t c = cols; c < stride; c++) {
			const unsigned char *e = s + (size_t)c * size;
			for (size_t i = 0; i < size; i++)
				if (e[i] != poison) {
					written++;
					break;
				}
		}
	}
	return written;
}
