/* Config: the default vector width, the check of a user-forced config, the short form. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "heuristics/heuristics.h"

int
config_elem_size(const Kernel *k, Type dtype)
{
	int size = 1;
	for (int p = 0; p < k->nparams; p++) {
		const Param *pa = &k->params[p];
		int s = type_size(type_resolve(pa->type, dtype));
		if (pa->kind != P_PARAM && shape_has_n(pa->shape) && s > size)
			size = s;
	}
	return size;
}

/* 16 bytes for any N: codegen aligns each row's body and reads a misaligned head and the tail
 * element by element, so vec is the body's width. N stays in the signature for the callers. */
int
config_vec(const Kernel *k, Type dtype, int64_t N)
{
	(void)N;
	return 16 / config_elem_size(k, dtype);
}

static int
pow2(int64_t x)
{
	return x > 0 && (x & (x - 1)) == 0;
}

int
config_check(const Config *c, const Kernel *k, const Facts *f, int64_t M, int64_t N,
	     const Target *t, Diag *d)
{
	int size = config_elem_size(k, f->dtype);
	if (M < 1 || N < 1)
		return diag(d, "shape %lldx%lld: M and N must be at least 1", (long long)M,
			    (long long)N);
	if (!pow2(c->num_warps) || 32 * c->num_warps > t->max_threads_cta)
		return diag(d, "num_warps=%d: must be a power of two from 1 to %d", c->num_warps,
			    t->max_threads_cta / 32);
	if (!pow2(c->m_block) || c->m_block > 32 * c->num_warps)
		return diag(d,
			    "m_block=%d: threads per row (32*num_warps/m_block) must be a power of "
			    "two from 1 to %d; with num_warps=%d, m_block may be 1, 2, 4, ..., %d",
			    c->m_block, 32 * c->num_warps, c->num_warps, 32 * c->num_warps);
	if (!pow2(c->vec) || c->vec * size > 16)
		return diag(d,
			    "vec=%d: must be a power of two with vec*%d bytes <= 16 (at most %d)",
			    c->vec, size, 16 / size);
	int64_t step = (int64_t)config_tpr(c) * c->vec;
	if (c->r_block < step || c->r_block % step)
		return diag(d,
			    "r_block=%lld: must be a multiple of threads per row * vec = %d * %d = "
			    "%lld",
			    (long long)c->r_block, config_tpr(c), c->vec, (long long)step);
	if (c->split < 1)
		return diag(d, "split=%d: must be at least 1", c->split);
	if (c->evict != 0 && c->evict != 1)
		return diag(d, "evict=%d: must be 0 (no cache hints) or 1 (L2 eviction hints)",
			    c->evict);
	int most = t->max_threads_sm / (32 * c->num_warps);
	most = most < t->max_ctas_sm ? most : t->max_ctas_sm;
	if (c->min_ctas < 0 || c->min_ctas > most)
		return diag(d,
			    "min_ctas=%d: must be from 1 to %d (CTAs of %d threads an SM can "
			    "hold)",
			    c->min_ctas, most, 32 * c->num_warps);
	if (c->split > 1 && !f->split_ok)
		return diag(d,
			    "split=%d: row splitting needs reductions combinable in one pass and "
			    "no [M,N] output; this kernel has %s",
			    c->split,
			    f->full_width_output ? "an [M,N] output"
			    : f->levels > 1	 ? "dependent reductions"
			    : f->levels		 ? "an online max/sum pair"
						 : "no reduction");
	int64_t seg = (N + c->split - 1) / c->split;
	if (c->split > 1 && seg < step)
		return diag(
		    d,
		    "split=%d: each CTA's segment (%lld elements) is shorter than one access "
		    "of the row's threads (%lld)",
		    c->split, (long long)seg, (long long)step);
	if (c->persistent && c->r_block < seg)
		return diag(
		    d,
		    "persistent needs r_block >= %s (%lld); r_block=%lld would leave part of "
		    "the row out",
		    c->split > 1 ? "the split segment" : "N", (long long)seg,
		    (long long)c->r_block);
	return 0;
}

int
config_equal(const Config *a, const Config *b)
{
	return a->persistent == b->persistent && a->r_block == b->r_block &&
	       a->m_block == b->m_block && a->num_warps == b->num_warps && a->vec == b->vec &&
	       a->split == b->split && a->evict == b->evict && a->min_ctas == b->min_ctas;
}

void
config_short(Buf *b, const Config *c)
{
	if (c->persistent)
		buf_printf(b, "P r%lld", (long long)c->r_block);
	else
		buf_printf(b, "L%lld", (long long)c->r_block);
	buf_printf(b, " m%d w%d v%d", c->m_block, c->num_warps, c->vec);
	if (c->split > 1)
		buf_printf(b, " s%d", c->split);
	if (c->evict)
		buf_puts(b, " e");
	if (c->min_ctas > 1)
		buf_printf(b, " k%d", c->min_ctas);
}

static const char *policy_names[] = {[POLICY_RKC] = "rkc", [POLICY_HELION2828] = "helion2828"};

int
policy_parse(const char *s, Policy *p)
{
	for (int i = 0; i < 2; i++)
		if (!strcmp(s, policy_names[i])) {
			*p = (Policy)i;
			return 0;
		}
	return -1;
}

const char *
policy_name(Policy p)
{
	return policy_names[p];
}

/* The keys --config takes and the values each accepts whatever the kernel, shape and target
 * (config_check judges a value for those); the bounds keep every product of knobs in int64_t. */
static const struct {
	const char *key;
	size_t off; /* of an int field; r_block, the one int64_t field, is set by name */
	int64_t lo, hi;
	const char *range;
} config_keys[] = {
    {"persistent", offsetof(Config, persistent), 0, 1, "0 or 1"},
    {"r_block", 0, 1, SHAPE_MAX_N, "an integer from 1 to 2^40"},
    {"m_block", offsetof(Config, m_block), 1, 1024, "an integer from 1 to 1024"},
    {"num_warps", offsetof(Config, num_warps), 1, 32, "an integer from 1 to 32"},
    {"vec", offsetof(Config, vec), 1, 16, "an integer from 1 to 16"},
    {"split", offsetof(Config, split), 1, 65536, "an integer from 1 to 65536"},
    {"evict", offsetof(Config, evict), 0, 1, "0 or 1"},
    {"min_ctas", offsetof(Config, min_ctas), 1, 32, "an integer from 1 to 32"},
};

int
config_parse(const char *s, Config *c, Diag *d)
{
	enum { NKEYS = sizeof config_keys / sizeof config_keys[0] };
	const char *item = s;
	while (*item) {
		const char *eq = strchr(item, '='), *end = strchr(item, ',');
		if (!end)
			end = item + strlen(item);
		if (!eq || eq > end)
			return diag(d, "bad --config '%s': expected key=value, not '%.*s'", s,
				    (int)(end - item), item);
		size_t n = (size_t)(eq - item);
		int k = 0;
		while (k < NKEYS &&
		       (strlen(config_keys[k].key) != n || strncmp(item, config_keys[k].key, n)))
			k++;
		if (k == NKEYS) {
			char known[128] = "";
			for (int j = 0; j < NKEYS; j++)
				snprintf(known + strlen(known), sizeof known - strlen(known),
					 "%s%s", j ? ", " : "", config_keys[j].key);
			return diag(d, "bad --config '%s': unknown key '%.*s' (known: %s)", s,
				    (int)n, item, known);
		}
		/* an optional '-' then digits: strtoll alone would take spaces and '+' too */
		const char *v = eq + 1, *digits = v + (*v == '-'), *p = digits;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		errno = 0;
		long long x = p == end && p > digits ? strtoll(v, NULL, 10) : 0;
		if (p != end || p == digits || errno == ERANGE || x < config_keys[k].lo ||
		    x > config_keys[k].hi)
			return diag(d, "bad --config '%s': %s takes %s, not '%.*s'", s,
				    config_keys[k].key, config_keys[k].range, (int)(end - v), v);
		if (!strcmp(config_keys[k].key, "r_block"))
			c->r_block = x;
		else
			*(int *)((char *)c + config_keys[k].off) = (int)x;
		if (!*end)
			break;
		item = end + 1;
		if (!*item)
			return diag(d, "bad --config '%s': expected key=value after the last ','",
				    s);
	}
	return 0;
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

int
config_force(Config *c, const char *forced, const Kernel *k, const Facts *f, int64_t M, int64_t N,
	     const Target *t, Policy p, Diag *d)
{
	Config g = *c;
	g.min_ctas = -1;
	if (config_parse(forced, &g, d))
		return -1;
	int own = g.min_ctas == -1;
	if (own)
		g.min_ctas = 1;
	if (config_check(&g, k, f, M, N, t, d))
		return -1;
	if (own && p == POLICY_RKC) {
		Cost o;
		g.min_ctas = rkc_min_ctas(f, &g, M, N, t, &o);
	}
	*c = g;
	return 0;
}
