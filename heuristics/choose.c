/* Choose: the entry point that checks the shape and runs a policy. */
#include <stdarg.h>
#include <string.h>

#include "heuristics/heuristics.h"

void
choice_reason(Choice *c, const char *fmt, ...)
{
	if (c->nreasons == MAX_REASONS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->reasons[c->nreasons++], sizeof c->reasons[0], fmt, ap);
	va_end(ap);
}

int
choose(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t, Policy p,
       Choice *out, Diag *d)
{
	memset(out, 0, sizeof *out);
	if (shape_check(M, N, d))
		return -1;
	if (p == POLICY_HELION2828)
		choose_helion2828(k, f, M, N, t, out);
	else
		choose_rkc(k, f, M, N, t, out);
	return 0;
}

/* Reference §1.3, the lab's probe of Helion's own kernels; shown beside our count. */
int
helion_measured_live(const char *kernel)
{
	static const struct {
		const char *name;
		int live;
	} table[] = {
	    {"fused_linear_jsd", 7},
	    {"rms_norm", 3},
	    {"layer_norm", 3},
	    {"softmax", 2},
	    {"sum", 2},
	    {"long_sum", 2},
	    {"cross_entropy", 2},
	    {"welford", 3},
	    {"kl_div", 6},
	    {"jsd", 12},
	    {"fused_add_rmsnorm", 4},
	    {"fused_add_layernorm", 4},
	    {"gated_rmsnorm", 4},
	    {"scaled_masked_softmax", 3},
	    {"cross_entropy_ls_zloss", 3},
	    {"dynamic_quant", 3},
	    {"grpo", 2},
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (!strcmp(table[i].name, kernel))
			return table[i].live;
	return -1;
}
