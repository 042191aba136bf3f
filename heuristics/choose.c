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

/* The validator, then min_ctas by p's rule where none was forced (min_ctas -1). */
static int
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

/* Where pick has a persistent grid (sized for its CTAs an SM), forced does not name grid and the
 * knobs keep a grid, the grid resized to the new config's, min(row blocks, SMs x CTAs an SM), so
 * that it stays one wave. 1 where it changed, else 0 (and 0 for a config the validator refuses:
 * config_settle says why). Measured: forced smem=1 or 2 over rms_norm_backward bf16's grid of
 * 264, which kept rows leave one CTA an SM, ran two waves at 1.35-1.55x the pick's time
 * (docs/heuristics.md). */
static int
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

/* Where forced changes a row's threads or vec and does not name r_block, and the choice's r_block
 * is no longer whole steps (threads a row x vec), r_block rounded up to them: a persistent row's
 * segment, a looped row's chunk. The old r_block where it changed, else 0. */
static int64_t
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
	     const Target *t, Policy p, Forced *moved, Diag *d)
{
	Config g = *c;
	g.min_ctas = -1;
	if (config_parse(forced, &g, d))
		return -2;
	Forced mv = {.restep = config_restep(&g, forced, N)};
	if (config_regrid(&g, c, forced, k, f, M, N, t))
		mv.regrid = c->grid;
	if (config_settle(&g, k, f, M, N, t, p, d))
		return -1;
	*c = g;
	if (moved)
		*moved = mv;
	return 0;
}
