/* Config: the element size and default vector width, parsing, equality and the short form. */
#include <stdlib.h>
#include <string.h>

#include "heuristics/heuristics.h"

int
config_elem_size(const Kernel *k, Type dtype)
{
	int size = 0;
	for (int p = 0; p < k->nparams; p++) {
		const Param *pa = &k->params[p];
		int s = type_size(type_resolve(pa->type, dtype));
		if (pa->kind != P_PARAM && shape_has_n(pa->shape) && s > size)
			size = s;
	}
	return size ? size : type_size(dtype);
}

/* 16 bytes for any N: codegen aligns each row's body and reads a misaligned head and the tail
 * element by element, so vec is the body's width. N stays in the signature for the callers. */
int
config_vec(const Kernel *k, Type dtype, int64_t N)
{
	(void)N;
	return 16 / config_elem_size(k, dtype);
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

int
config_parse(const char *s, Config *c, Diag *d)
{
	while (*s) {
		const char *eq = strchr(s, '='), *end = strchr(s, ',');
		if (!end)
			end = s + strlen(s);
		if (!eq || eq > end)
			return diag(d, "--config: expected key=value at '%.*s'", (int)(end - s), s);
		char *stop;
		long long v = strtoll(eq + 1, &stop, 10);
		if (stop != end || stop == eq + 1)
			return diag(d, "--config: '%.*s' is not an integer", (int)(end - eq - 1),
				    eq + 1);
		size_t n = eq - s;
		if (n == 10 && !strncmp(s, "persistent", n))
			c->persistent = v != 0;
		else if (n == 7 && !strncmp(s, "r_block", n))
			c->r_block = v;
		else if (n == 7 && !strncmp(s, "m_block", n))
			c->m_block = (int)v;
		else if (n == 9 && !strncmp(s, "num_warps", n))
			c->num_warps = (int)v;
		else if (n == 3 && !strncmp(s, "vec", n))
			c->vec = (int)v;
		else if (n == 5 && !strncmp(s, "split", n))
			c->split = (int)v;
		else if (n == 5 && !strncmp(s, "evict", n))
			c->evict = (int)v;
		else if (n == 8 && !strncmp(s, "min_ctas", n))
			c->min_ctas = (int)v;
		else
			return diag(d,
				    "--config: unknown key '%.*s' (known: persistent, r_block, "
				    "m_block, num_warps, vec, split, evict, min_ctas)",
				    (int)n, s);
		s = *end ? end + 1 : end;
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
