/* Config: the element size and default vector width, parsing, equality and the short form. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "heuristics/heuristics.h"

/* The widest element of the [M,N] and [N] arrays, which sets vec's 16 bytes. But for a kernel
 * whose only outputs are colsums (kernel_colsum_outputs_only), which the combine after the rows
 * stores 4 columns an access whatever the rows' vec: its rows only read, and their vec follows
 * the arrays they read. Measured on an H200 (bench/results/h200-2026-12-01-heldout3.md):
 * bias_grad (db, f32, the sum of a 16-bit dy over rows) at vec 8, with the column pass's rules of
 * the same change, 24 points at 0.672-1.083x the time, 0.903x by geomean. The same width for
 * kernels that also store [M,N] or [M] outputs (bias_gelu_back, colonly) ran 0.91-2.01x, ptxas
 * spilling at the cap the model plans (128 bytes at bias_gelu_back bf16 4096x4096), so those keep
 * the width of their f32 output. */
int
config_elem_sizes(const Kernel *k, Type dtype, int *widest, int *narrowest)
{
	int size = 0, narrow = 0, at = -1, only = kernel_colsum_outputs_only(k);
	for (int p = 0; p < k->nparams; p++) {
		const Param *pa = &k->params[p];
		int s = type_size(type_resolve(pa->type, dtype));
		if (pa->kind == P_PARAM || !shape_has_n(pa->shape) || (only && pa->kind == P_OUT))
			continue;
		if (s > size)
			size = s, at = p;
		if (!narrow || s < narrow)
			narrow = s;
	}
	if (widest)
		*widest = at;
	if (narrowest)
		*narrowest = narrow ? narrow : type_size(dtype);
	return size ? size : type_size(dtype);
}

int
config_elem_size(const Kernel *k, Type dtype)
{
	return config_elem_sizes(k, dtype, NULL, NULL);
}

/* 16 bytes for any N: codegen aligns each row's body and reads a misaligned head and the tail
 * element by element, so vec is the body's width. A kernel with a sum over rows needs rows that
 * start aligned (a thread keeps the same columns in every row): the widest vec dividing N. */
int
config_vec(const Kernel *k, Type dtype, int64_t N)
{
	int vec = 16 / config_elem_size(k, dtype);
	while (k->plan->ncolsum && vec > 1 && N % vec)
		vec /= 2;
	return vec;
}

int
config_equal(const Config *a, const Config *b)
{
	return a->persistent == b->persistent && a->r_block == b->r_block &&
	       a->m_block == b->m_block && a->num_warps == b->num_warps && a->vec == b->vec &&
	       a->split == b->split && a->evict == b->evict && a->min_ctas == b->min_ctas &&
	       a->smem == b->smem &&
	       (a->cluster > 1 ? a->cluster : 1) == (b->cluster > 1 ? b->cluster : 1) &&
	       a->grid == b->grid && a->dynamic == b->dynamic && a->ahead == b->ahead &&
	       a->coop == b->coop && a->stash == b->stash && a->steps == b->steps &&
	       a->colpass == b->colpass;
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
	if (c->cluster > 1)
		buf_printf(b, " %s%d", c->coop ? "x" : "c", c->cluster);
	if (c->smem)
		buf_puts(b, c->smem == 2 ? " Sa" : " S");
	if (c->stash)
		buf_puts(b, " st");
	if (c->grid > 0)
		buf_printf(b, " g%s%d", c->dynamic ? "d" : "", c->grid);
	if (c->ahead)
		buf_puts(b, " a");
	if (c->ahead > 1)
		buf_printf(b, "%d", c->ahead);
	if (c->steps)
		buf_puts(b, " t");
	if (c->colpass)
		buf_puts(b, " cp");
	if (c->evict)
		buf_puts(b, " e");
	if (c->min_ctas > 1)
		buf_printf(b, " k%d", c->min_ctas);
}

/* The keys --config takes and the values each accepts whatever the kernel, shape and target
 * (the validator judges a value for those); the bounds keep every product of knobs in int64_t. */
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
    {"smem", offsetof(Config, smem), 0, 2, "0, 1 or 2"},
    {"cluster", offsetof(Config, cluster), 1, MAX_COOP, "an integer from 1 to 1024"},
    {"grid", offsetof(Config, grid), 0, 1 << 20, "an integer from 0 to 2^20"},
    {"dynamic", offsetof(Config, dynamic), 0, 1, "0 or 1"},
    {"ahead", offsetof(Config, ahead), 0, AHEAD_RING_MAX, "an integer from 0 to 4"},
    {"coop", offsetof(Config, coop), 0, 1, "0 or 1"},
    {"stash", offsetof(Config, stash), 0, 1, "0 or 1"},
    {"steps", offsetof(Config, steps), 0, 1, "0 or 1"},
    {"colpass", offsetof(Config, colpass), 0, 1, "0 or 1"},
};

int
config_names(const char *s, const char *key)
{
	size_t n = strlen(key);
	for (const char *item = s; item; item = strchr(item, ','), item = item ? item + 1 : NULL)
		if (!strncmp(item, key, n) && item[n] == '=')
			return 1;
	return 0;
}

int
config_parse(const char *s, Config *c, Diag *d)
{
	enum { NKEYS = sizeof config_keys / sizeof config_keys[0] };
	const char *item = s;
	/* seen: 1 in each field a key set; bands: the config underneath is a grid of bands */
	Config seen = {0};
	int bands = config_band_grid(c);
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
			char known[192] = "";
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
		if (!strcmp(config_keys[k].key, "r_block")) {
			c->r_block = x;
			seen.r_block = 1;
		} else {
			*(int *)((char *)c + config_keys[k].off) = (int)x;
			*(int *)((char *)&seen + config_keys[k].off) = 1;
		}
		if (!*end)
			break;
		item = end + 1;
		if (!*item)
			return diag(d, "bad --config '%s': expected key=value after the last ','",
				    s);
	}
	/* a knob set here wins over one left from the config underneath that contradicts it */
	if (seen.persistent && c->persistent && !seen.smem)
		c->smem = 0;
	if ((seen.smem || seen.persistent) && (!c->smem || c->persistent) && !seen.stash)
		c->stash = 0;
	if (seen.persistent && !c->persistent && !seen.steps)
		c->steps = 0;
	/* partials kept in shared memory (smem on a persistent row) are what colpass=1 does away
	 * with */
	if (seen.smem && c->smem && c->persistent && !seen.colpass)
		c->colpass = 0;
	if (seen.split && c->split > 1 && !seen.cluster)
		c->cluster = 1;
	if (seen.cluster && c->cluster > 1 && !seen.split)
		c->split = 1;
	if ((seen.split && c->split > 1) || (seen.cluster && c->cluster > 1))
		if (!seen.grid)
			c->grid = 0;
	/* a grid given walks whole rows, but over a grid of bands, where it is whole bands (a
	 * multiple of the cluster), it resizes the bands' grid */
	if (seen.grid && c->grid > 0 && !(bands && c->grid % c->cluster == 0)) {
		if (!seen.split)
			c->split = 1;
		if (!seen.cluster)
			c->cluster = 1;
	}
	if (seen.grid && c->grid == 0) {
		if (!seen.dynamic)
			c->dynamic = 0;
		if (!seen.ahead)
			c->ahead = 0;
	}
	if (seen.persistent && !c->persistent && !seen.ahead)
		c->ahead = 0;
	/* a grid of bands given walks a static order one row at a time */
	if ((seen.grid || seen.cluster) && c->grid > 0 && c->cluster > 1) {
		if (!seen.dynamic)
			c->dynamic = 0;
		if (!seen.ahead)
			c->ahead = 0;
	}
	/* a cluster given alone is a hardware cluster, whatever the pick underneath was */
	if ((c->cluster <= 1 || seen.cluster) && !seen.coop)
		c->coop = 0;
	return 0;
}
