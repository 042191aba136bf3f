/* Inputs from a seed: each input's distribution (testdata/inputs.json), rounded to its storage. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

static const char *dist_names[D_COUNT] = {"normal", "uniform", "log_probs",	    "probs",
					  "labels", "mask",    "selected_log_prob", "bernoulli"};

static double
num(json_t *o, const char *key, double def)
{
	json_t *j = json_object_get(o, key);
	return json_is_number(j) ? json_number_value(j) : def;
}

static int
input_param(const Kernel *k, json_t *o, const char *key, int *p, const char *file, Diag *d)
{
	const char *name = json_string_value(json_object_get(o, key));
	*p = name ? kernel_param(k, name) : -1;
	if (*p < 0 || k->params[*p].kind != P_IN)
		return diag_at(d, file, (Loc){0}, "%s: \"%s\" must name an input", k->name, key);
	return 0;
}

static int
parse_dist(Dist *ds, int p, const Kernel *k, json_t *o, const char *file, Diag *d)
{
	const Param *pa = &k->params[p];
	Dist *t = &ds[p];
	const char *name = json_string_value(json_object_get(o, "dist"));
	if (!json_is_object(o) || !name)
		return diag_at(d, file, (Loc){0}, "%s.%s: needs {\"dist\": ...}", k->name,
			       pa->name);
	/* "logits" is a normal distribution centred on 0 with a logit-like spread. */
	int logits = !strcmp(name, "logits");
	int kind = logits ? D_NORMAL : 0;
	while (!logits && kind < D_COUNT && strcmp(name, dist_names[kind]))
		kind++;
	if (kind == D_COUNT)
		return diag_at(d, file, (Loc){0}, "%s.%s: unknown dist '%s'", k->name, pa->name,
			       name);
	*t = (Dist){.kind = (DistKind)kind, .logits = -1, .labels = -1};
	switch (t->kind) {
	case D_NORMAL:
		t->a = num(o, "mean", 0);
		t->b = num(o, "std", logits ? 2 : 1);
		break;
	case D_UNIFORM:
		t->a = num(o, "lo", -1);
		t->b = num(o, "hi", 1);
		break;
	case D_LOGPROBS:
	case D_PROBS:
		t->b = num(o, "std", 2);
		if (pa->shape != SH_TILE && pa->shape != SH_VEC)
			return diag_at(d, file, (Loc){0}, "%s.%s: %s needs a row along N", k->name,
				       pa->name, name);
		break;
	case D_LABELS:
		if (!type_is_int(pa->type))
			return diag_at(d, file, (Loc){0}, "%s.%s: labels need an integer input",
				       k->name, pa->name);
		t->a = num(o, "frac", 0);
		t->b = num(o, "ignore", -100);
		if (t->a < 0 || t->a > 1 || (t->a > 0 && t->b >= 0) || t->b != floor(t->b))
			return diag_at(d, file, (Loc){0},
				       "%s.%s: labels take frac in [0, 1] and a negative integer "
				       "ignore",
				       k->name, pa->name);
		break;
	case D_MASK:
		t->a = num(o, "frac", 0.3);
		t->b = num(o, "value", -1e4);
		break;
	case D_SELECTED:
		t->b = num(o, "std", 0.1);
		t->temperature = num(o, "temperature", 1);
		if (input_param(k, o, "logits", &t->logits, file, d) ||
		    input_param(k, o, "labels", &t->labels, file, d))
			return -1;
		if (pa->shape != SH_ROW || k->params[t->logits].shape != SH_TILE ||
		    k->params[t->labels].shape != SH_ROW || !type_is_int(k->params[t->labels].type))
			return diag_at(d, file, (Loc){0},
				       "%s.%s: selected_log_prob needs [M] from [M,N] logits and "
				       "[M] integer labels",
				       k->name, pa->name);
		break;
	case D_BERNOULLI:
		t->a = num(o, "frac", 0.5);
		break;
	default:
		break;
	}
	return 0;
}

int
inputs_spec(Dist *ds, const Kernel *k, const char *file, const char *text, Diag *d)
{
	json_error_t err;
	json_t *root = json_loads(text, 0, &err);
	if (!root)
		return diag_at(d, file, (Loc){err.line, err.column}, "%s", err.text);
	int rc = -1;
	json_t *defs = json_object_get(root, "default");
	json_t *mine = json_object_get(json_object_get(root, "kernels"), k->name);
	const char *key;
	json_t *v;
	json_object_foreach(mine, key, v)
	{
		int p = kernel_param(k, key);
		if (p < 0 || k->params[p].kind != P_IN) {
			diag_at(d, file, (Loc){0}, "%s: '%s' is not an input of the kernel",
				k->name, key);
			goto out;
		}
	}
	for (int p = 0; p < k->nparams; p++) {
		const Param *pa = &k->params[p];
		if (pa->kind != P_IN)
			continue;
		json_t *o = json_object_get(mine, pa->name);
		const char *cls = type_is_int(pa->type) ? "int"
				  : pa->type == TY_BOOL ? "bool"
							: "float";
		if (!o)
			o = json_object_get(defs, cls);
		if (!o) {
			diag_at(d, file, (Loc){0}, "no default distribution for %s inputs", cls);
			goto out;
		}
		if (parse_dist(ds, p, k, o, file, d))
			goto out;
	}
	for (int p = 0; p < k->nparams; p++)
		if (k->params[p].kind == P_IN && ds[p].kind == D_SELECTED &&
		    (ds[ds[p].logits].kind == D_SELECTED || ds[ds[p].labels].kind == D_SELECTED)) {
			diag_at(d, file, (Loc){0},
				"%s.%s: selected_log_prob reads another derived input", k->name,
				k->params[p].name);
			goto out;
		}
	rc = 0;
out:
	json_decref(root);
	return rc;
}

/* splitmix64: small, fast, and good enough for test data. */
typedef struct {
	uint64_t s;
	double spare; /* the polar method makes normals in pairs */
	int has_spare;
} Rng;

static uint64_t
rng_next(Rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double
rng_unit(Rng *r) /* [0, 1) */
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/* Marsaglia's polar method: no trigonometry, which dominated generation time. */
static double
rng_normal(Rng *r)
{
	if (r->has_spare) {
		r->has_spare = 0;
		return r->spare;
	}
	double u, v, s;
	do {
		u = 2 * rng_unit(r) - 1;
		v = 2 * rng_unit(r) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	double f = sqrt(-2 * log(s) / s);
	r->spare = v * f;
	r->has_spare = 1;
	return u * f;
}

static Rng
rng_row(uint64_t seed, int param, int64_t row)
{
	Rng r = {.s = seed ^ 0x5851f42d4c957f2dull * (uint64_t)(param + 1)};
	r.s ^= rng_next(&(Rng){.s = (uint64_t)row});
	rng_next(&r);
	return r;
}

typedef struct {
	Tensor *ts;
	const Dist *ds;
	int p;
	int64_t cols; /* elements per generated row: N, or 1 for [M] */
	int64_t n;    /* the row length N, which labels index */
	uint64_t seed;
	int64_t row0; /* the first row's index in the stream of rows (0 for an [N] input) */
} Gen;

static void
gen_rows(void *ctx, int64_t lo, int64_t hi)
{
	Gen *g = ctx;
	const Dist *t = &g->ds[g->p];
	Tensor *out = &g->ts[g->p];
	int64_t C = g->cols;
	double *row = malloc(sizeof(double) * (size_t)C);
	for (int64_t r = lo; r < hi; r++) {
		Rng rng = rng_row(g->seed, g->p, g->row0 + r);
		double mx = -INFINITY, sum = 0;
		for (int64_t c = 0; c < C; c++) {
			double v = 0;
			switch (t->kind) {
			case D_NORMAL:
				v = t->a + t->b * rng_normal(&rng);
				break;
			case D_UNIFORM:
				v = t->a + (t->b - t->a) * rng_unit(&rng);
				break;
			case D_LOGPROBS:
			case D_PROBS:
				v = t->b * rng_normal(&rng);
				mx = fmax(mx, v);
				break;
			case D_LABELS:
				/* an ignored row (frac > 0): at random, and always row 1, so
				 * that a launch of a few rows has one */
				v = (double)(rng_next(&rng) % (uint64_t)g->n);
				if (t->a > 0 && (rng_unit(&rng) < t->a || g->row0 + r == 1))
					v = t->b;
				break;
			case D_MASK:
				v = rng_unit(&rng) < t->a ? t->b : 0;
				break;
			case D_BERNOULLI:
				v = rng_unit(&rng) < t->a;
				break;
			default:
				break;
			}
			row[c] = v;
		}
		if (t->kind == D_MASK && C > 0) {
			/* A fully masked row softmaxes to uniform: legal, but tests nothing. */
			int any = 0;
			for (int64_t c = 0; c < C && !any; c++)
				any = row[c] == 0;
			if (!any)
				row[rng_next(&rng) % (uint64_t)C] = 0;
		}
		if (t->kind == D_LOGPROBS || t->kind == D_PROBS) {
			for (int64_t c = 0; c < C; c++)
				sum += exp(row[c] - mx);
			double lse = mx + log(sum);
			for (int64_t c = 0; c < C; c++)
				row[c] = t->kind == D_PROBS ? exp(row[c] - lse) : row[c] - lse;
		}
		for (int64_t c = 0; c < C; c++)
			elem_set(out->type, out->data, r * C + c, row[c]);
	}
	free(row);
}

/* log_softmax(x[r] / T)[label[r]] from the stored logits, plus noise: close to what the kernel
 * computes, so ratios exp(logp - old) land near 1 where clamps bite. */
static void
gen_selected(void *ctx, int64_t lo, int64_t hi)
{
	Gen *g = ctx;
	const Dist *t = &g->ds[g->p];
	const Tensor *x = &g->ts[t->logits], *lab = &g->ts[t->labels];
	int64_t N = g->n;
	for (int64_t r = lo; r < hi; r++) {
		Rng rng = rng_row(g->seed, g->p, g->row0 + r);
		double mx = -INFINITY, sum = 0;
		for (int64_t c = 0; c < N; c++)
			mx = fmax(mx, elem_get(x->type, x->data, r * N + c) / t->temperature);
		for (int64_t c = 0; c < N; c++)
			sum += exp(elem_get(x->type, x->data, r * N + c) / t->temperature - mx);
		int64_t l = (int64_t)elem_get(lab->type, lab->data, r);
		double sel = l >= 0 && l < N ? elem_get(x->type, x->data, r * N + l) : 0;
		double v = sel / t->temperature - mx - log(sum) + t->b * rng_normal(&rng);
		elem_set(g->ts[g->p].type, g->ts[g->p].data, r, v);
	}
}

int
inputs_make(Tensor *ts, const Kernel *k, Type dtype, int64_t M, int64_t N, uint64_t seed,
	    const Dist *ds, Diag *d)
{
	return inputs_make_rows(ts, k, dtype, M, N, seed, 0, ds, d);
}

int
inputs_make_rows(Tensor *ts, const Kernel *k, Type dtype, int64_t M, int64_t N, uint64_t seed,
		 int64_t first_row, const Dist *ds, Diag *d)
{
	memset(ts, 0, sizeof(Tensor) * (size_t)k->nparams);
	for (int p = 0; p < k->nparams; p++) {
		const Param *pa = &k->params[p];
		Tensor *t = &ts[p];
		t->type = type_resolve(pa->type, dtype);
		t->count = shape_count(pa->shape, M, N);
		if (pa->kind == P_OUT)
			continue;
		t->data = calloc((size_t)t->count, (size_t)type_size(t->type));
		if (!t->data) {
			tensors_free(ts, k->nparams);
			return diag(d, "out of memory for input '%s' (%lld elements)", pa->name,
				    (long long)t->count);
		}
		if (pa->kind == P_PARAM)
			elem_set(t->type, t->data, 0, pa->def);
	}
	/* Derived inputs read others, so they come second. */
	for (int pass = 0; pass < 2; pass++)
		for (int p = 0; p < k->nparams; p++) {
			const Param *pa = &k->params[p];
			if (pa->kind != P_IN || (ds[p].kind == D_SELECTED) != pass)
				continue;
			Gen g = {ts,
				 ds,
				 p,
				 pa->shape == SH_ROW ? 1 : N,
				 N,
				 seed,
				 pa->shape == SH_VEC ? 0 : first_row};
			if (pass)
				parallel_for(M, gen_selected, &g);
			else
				parallel_for(pa->shape == SH_VEC ? 1 : M, gen_rows, &g);
		}
	return 0;
}

void
tensors_free(Tensor *ts, int n)
{
	for (int i = 0; i < n; i++) {
		free(ts[i].data);
		ts[i].data = NULL;
	}
}
