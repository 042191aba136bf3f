/* Choose: the policies by name, the entry point that runs one, and forced knobs over its pick. */
#include <string.h>

#include "heuristics/heuristics.h"

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

int
choose_invariant(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t, Policy p,
		 Choice *out, Diag *d)
{
	memset(out, 0, sizeof *out);
	if (p != POLICY_RKC)
		return diag(d,
			    "the batch-invariant mode is the rkc policy's; the %s policy has none",
			    policy_name(p));
	if (shape_check(M, N, d))
		return -1;
	return choose_rkc_invariant(k, f, M, N, t, out, d);
}

int
config_settle(Config *g, const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
	      Policy p, Diag *d)
{
	int own = g->min_ctas == -1;
	if (own)
		g->min_ctas = 1;
	if (config_check_emit(k, f->dtype, M, N, g, d) ||
	    config_check_target(k, f->dtype, N, g, t, d))
		return -1;
	if (own && p == POLICY_RKC) {
		Cost o;
		g->min_ctas = rkc_min_ctas(f, g, M, N, t, &o);
	}
	return 0;
}

int
config_regrid(Config *g, const Config *pick, const char *forced, const Kernel *k, const Facts *f,
	      int64_t M, int64_t N, const Target *t)
{
	if (pick->grid <= 0 || g->grid <= 0 || config_names(forced, "grid"))
		return 0;
	Config h = *g;
	h.min_ctas = 1;
	if (config_check_emit(k, f->dtype, M, N, &h, NULL) ||
	    config_check_target(k, f->dtype, N, &h, t, NULL))
		return 0;
	Cost o;
	cost_model(f, &h, M, N, t, &o);
	int grid = grid_one_wave(&o, f, g, M, N, t);
	if (grid == g->grid)
		return 0;
	g->grid = grid;
	return 1;
}

int64_t
config_restep(Config *g, const char *forced, int64_t N)
{
	if (config_names(forced, "r_block") || g->m_block < 1 || g->vec < 1 ||
	    32 * g->num_warps % g->m_block)
		return 0;
	int64_t step = (int64_t)config_tpr(g) * g->vec, was = g->r_block;
	if (step < 1 || was % step == 0)
		return 0;
	int64_t seg = cdiv(N, config_segments(g));
	g->r_block = g->persistent ? cdiv(seg, step) * step : cdiv(was, step) * step;
	return was;
}

int
config_force(Config *c, const char *forced, const Kernel *k, const Facts *f, int64_t M, int64_t N,
	     const Target *t, Policy p, Diag *d)
{
	Config g = *c;
	g.min_ctas = -1;
	if (config_parse(forced, &g, d))
		return -1;
	config_restep(&g, forced, N);
	config_regrid(&g, c, forced, k, f, M, N, t);
	if (config_settle(&g, k, f, M, N, t, p, d))
		return -1;
	*c = g;
	return 0;
}
