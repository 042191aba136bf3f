/* Policy rkc: the config with the least modelled time whose predicted registers do not spill. */
#include <stdlib.h>
#include <string.h>

#include "heuristics/rkc.h"

/* The candidates of cs best first into out (at most max), each explained and settled, after
 * the reasons first (NULL-terminated) when given, settled in mode (SETTLE_*). Returns how many. */
int
rkc_ranked(Cands *cs, const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
	   int64_t mcap, const char *const *first, Choice *out, int max, int mode)
{
	int n = 0;
	char *used = calloc(cs->n + 1, 1);
	for (; n < max && n < cs->n; n++) {
		int b = -1;
		for (int i = 0; i < cs->n; i++)
			if (!used[i] && (b < 0 || rkc_better(&cs->v[i], &cs->v[b])))
				b = i;
		used[b] = 1;
		memset(&out[n], 0, sizeof out[n]);
		for (int r = 0; first && first[r]; r++)
			choice_reason(&out[n], "%s", first[r]);
		out[n].cfg = cs->v[b].c;
		out[n].cost = cs->v[b].cost;
		Cand x = cs->v[b];
		rkc_explain(&out[n], cs, &x, k, f, M, N, t, mcap);
		rkc_settle(&out[n], k, f, M, N, t, mode);
	}
	free(used);
	return n;
}

int64_t
rkc_m_cap(int64_t M, const Target *t)
{
	return pp2(M / t->sms > 1 ? M / t->sms : 1);
}

/* When nothing fits the budget: the smallest looped chunk at the widest CTA. */
Config
rkc_fallback(int64_t N, const Target *t, int vec)
{
	Config c = {.m_block = 1,
		    .num_warps = t->max_threads_cta / 32,
		    .vec = vec,
		    .split = 1,
		    .min_ctas = 1,
		    .cluster = 1};
	c.r_block = (int64_t)config_tpr(&c) * c.vec;
	c.persistent = c.r_block >= N;
	return c;
}

int
rkc_candidates(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t, Choice *out,
	       int max)
{
	int64_t mcap = rkc_m_cap(M, t);
	Cands cs = {0};
	rkc_enumerate(&cs, k, f, M, N, t, mcap, config_vec(k, f->dtype, N), 1);
	int n = rkc_ranked(&cs, k, f, M, N, t, mcap, NULL, out, max, SETTLE_NORMAL);
	free(cs.v);
	return n;
}

int
rkc_set_aside(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t, Choice *out,
	      const char **rule)
{
	Cands cs = {0};
	rkc_enumerate(&cs, k, f, M, N, t, rkc_m_cap(M, t), config_vec(k, f->dtype, N), 1);
	int n = 0;
	for (int r = 0; r < NASIDE; r++) {
		const Cand *x = &cs.aside[r];
		if (!x->c.num_warps)
			continue;
		memset(&out[n], 0, sizeof out[n]);
		choice_reason(&out[n], "set aside by %s", rkc_aside_rules[r]);
		out[n].cfg = x->c;
		out[n].cost = x->cost;
		rkc_settle(&out[n], k, f, M, N, t, SETTLE_NORMAL);
		rule[n++] = rkc_aside_rules[r];
	}
	free(cs.v);
	return n;
}

int
rkc_as_ranked(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t, Choice *out)
{
	int64_t mcap = rkc_m_cap(M, t);
	Cands cs = {0};
	rkc_enumerate(&cs, k, f, M, N, t, mcap, config_vec(k, f->dtype, N), 1);
	int n = cs.n ? rkc_ranked(&cs, k, f, M, N, t, mcap, NULL, out, 1, SETTLE_AS_RANKED) : 0;
	free(cs.v);
	return n;
}

void
choose_rkc(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t, Choice *out)
{
	int64_t mcap = rkc_m_cap(M, t);
	Cands cs = {0};
	rkc_enumerate(&cs, k, f, M, N, t, mcap, config_vec(k, f->dtype, N), 1);
	if (!cs.n) {
		out->cfg = rkc_fallback(N, t, config_vec(k, f->dtype, N));
		cost_model(f, &out->cfg, M, N, t, &out->cost);
		choice_reason(
		    out, "no config fits the budget; the smallest chunk at %d threads: %d regs",
		    t->max_threads_cta, out->cost.regs);
		return;
	}
	rkc_ranked(&cs, k, f, M, N, t, mcap, NULL, out, 1, SETTLE_NORMAL);
	free(cs.v);
}
