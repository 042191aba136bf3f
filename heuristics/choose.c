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
	if (M < 1 || N < 1)
		return diag(d, "shape %lldx%lld: M and N must be at least 1", (long long)M,
			    (long long)N);
	if (p == POLICY_HELION2828)
		choose_helion2828(k, f, M, N, t, out);
	else
		choose_rkc(k, f, M, N, t, out);
	return 0;
}

/* body_live_tiles as PR #2828's author measured it on Helion's own versions of the 17 kernels
 * (a property of each kernel's graph, not of its shape); shown beside our count. */
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
