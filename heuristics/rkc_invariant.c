/* Policy rkc's batch-invariant mode: a row's reduction order chosen from N alone. */
#include <math.h>
#include <stdlib.h>

#include "heuristics/rkc.h"

/*
 * Batch-invariant mode (docs/heuristics.md, "Batch-invariant mode"). It is the rkc policy's own
 * ranking (rkc_enumerate, rkc_better, rkc_explain, rkc_settle) run under a constraint: over a
 * ladder of M to fix the knobs that set a row's reduction order from N alone, and once at the
 * actual M over the knobs that do not.
 */

/* The row count of a GPU full of rows, where throughput matters most: the last rung of the
 * ladder below. */
#define M_REF 65536
/* The batch sizes a row's order is weighed at: the order must be one for every M, so it is chosen
 * from N alone, over these. The rungs from MANY_ROWS up are a GPU full of rows. */
static const int64_t ladder[] = {1, 8, 64, 512, 4096, M_REF};
enum { NLADDER = sizeof ladder / sizeof *ladder };
#define MANY_ROWS 4096
/* M_REF's order stands unless another is REGRET_MAX times nearer the best config (of any order,
 * the same vec) at its worst rung under MANY_ROWS, costing at most MANY_LOSS times M_REF's order
 * at every rung from MANY_ROWS up; then the nearest such order. */
#define REGRET_MAX 1.5
#define MANY_LOSS 1.05
/* Where that leaves the order over FAR_WORST times the best config at a rung under MANY_ROWS (a
 * few rows of 10^6 columns a CTA each, while the best config spreads them over the GPU), many
 * rows' loss is weighed instead of capped: the order with the least max(worst, loss^W) is taken,
 * W = log REGRET_MAX / log MANY_LOSS, the rule's own rate (MANY_LOSS there weighs as REGRET_MAX
 * under MANY_ROWS), where that is REGRET_MAX times nearer than the capped pick's worst. */
#define FAR_WORST 4.0

int
rkc_invariant_vec(const Kernel *k, Type dtype, int64_t N)
{
	int v = config_vec(k, dtype, N);
	while (v > 1 && N % v)
		v /= 2;
	return v;
}

/* The knobs that fix a row's reduction order: persistent or looped, r_block, threads per row,
 * vec and the row's cut (split or cluster, how many, and whether the cluster is cooperative: its
 * CTAs' partials combine in another order). */
static int
same_order(const Config *a, const Config *b)
{
	return a->persistent == b->persistent && a->r_block == b->r_block &&
	       config_tpr(a) == config_tpr(b) && a->vec == b->vec &&
	       (a->split > 1 ? a->split : 1) == (b->split > 1 ? b->split : 1) &&
	       (a->cluster > 1 ? a->cluster : 1) == (b->cluster > 1 ? b->cluster : 1) &&
	       a->coop == b->coop;
}

int
rkc_same_order(const Config *a, const Config *b)
{
	return same_order(a, b);
}

/* Keep cs's candidates that keep ref's order; how many. */
static int
keep_order(Cands *cs, const Config *ref)
{
	int n = 0;
	for (int i = 0; i < cs->n; i++)
		if (same_order(&cs->v[i].c, ref))
			cs->v[n++] = cs->v[i];
	return cs->n = n;
}

/* The config of ref's order built directly where no enumerated one keeps it (the m_block cap at
 * few rows, the budget): one row a CTA, or one warp of 32/tpr rows. 0, or -1 with e set when
 * not even that can be emitted. */
static int
build_order(Cand *x, const Config *ref, const Kernel *k, const Facts *f, int64_t M, int64_t N,
	    const Target *t, Diag *e)
{
	Config c = *ref;
	int tpr = config_tpr(ref);
	c.m_block = tpr >= 32 ? 1 : 32 / tpr;
	c.num_warps = tpr >= 32 ? tpr / 32 : 1;
	c.min_ctas = 1;
	c.evict = 0;
	if (c.smem && (config_check_emit(k, f->dtype, M, N, &c, NULL) ||
		       config_check_target(k, f->dtype, N, &c, t, NULL)))
		c.smem = 0;
	if (config_check_emit(k, f->dtype, M, N, &c, e) ||
	    config_check_target(k, f->dtype, N, &c, t, e))
		return -1;
	*x = (Cand){c, {0}, 0, 0, 0};
	cost_model(f, &c, M, N, t, &x->cost);
	if (rkc_over_slots(x, f, t, M, N))
		return diag(e,
			    "a cooperative launch of %lld CTAs, over the %d an SM the target holds",
			    (long long)x->cost.ctas, x->cost.ctas_per_sm);
	rkc_rank_score(x, f, t, M, N);
	return 0;
}

/* The time at rung i of the best config that keeps o's order (ranked as choose_rkc ranks, or
 * built directly; INFINITY where none can be emitted); all: every candidate at the rung. */
static double
order_time(const Cands *all, const Config *o, const Kernel *k, const Facts *f, int64_t M, int64_t N,
	   const Target *t)
{
	const Cand *b = NULL;
	for (int i = 0; i < all->n; i++)
		if (same_order(&all->v[i].c, o) && (!b || rkc_better(&all->v[i], b)))
			b = &all->v[i];
	if (b)
		return b->score;
	Cand x;
	return build_order(&x, o, k, f, M, N, t, NULL) ? INFINITY : x.score;
}

/* The order-fixing knobs, from N alone (the mode's rule, docs/heuristics.md): the orders the
 * ladder's rungs enumerate, M_REF's pick's first; REGRET_MAX and MANY_LOSS choose among them. why
 * (n bytes) says which and what was compared. */
static Config
invariant_ref(const Kernel *k, const Facts *f, int64_t N, const Target *t, char *why, size_t n)
{
	int vec = rkc_invariant_vec(k, f->dtype, N);
	Cands all[NLADDER] = {{0}};
	double best[NLADDER];
	for (int i = 0; i < NLADDER; i++) {
		rkc_enumerate(&all[i], k, f, ladder[i], N, t, rkc_m_cap(ladder[i], t), vec, 0);
		best[i] = all[i].n ? rkc_best_cand(&all[i])->score : INFINITY;
	}
	if (!all[NLADDER - 1].n) {
		snprintf(why, n,
			 "batch-invariant order: no config fits the budget at M_REF=%d rows",
			 M_REF);
		for (int i = 0; i < NLADDER; i++)
			free(all[i].v);
		return rkc_fallback(N, t, vec);
	}
	/* the orders: M_REF's pick's first, then every other order a rung enumerates but
	 * cooperative rows. Their launch holds every CTA at once, so at many rows they run as a
	 * grid of bands, which the model ranks level with a CTA a row or better; measured on an
	 * H200 (bench/results/h200-2026-12-03-invariant-ladder.md) the norm backward kernels'
	 * bands at 1024-4096 rows ran 1.08-2.50x the time of M_REF's order. */
	int norder = 0, cap = 64;
	Config *order = malloc(sizeof *order * (size_t)cap);
	order[norder++] = rkc_best_cand(&all[NLADDER - 1])->c;
	for (int i = NLADDER - 1; i >= 0; i--)
		for (int c = 0; c < all[i].n; c++) {
			int skip = all[i].v[c].c.coop;
			for (int j = 0; j < norder && !skip; j++)
				skip = same_order(&order[j], &all[i].v[c].c);
			if (skip)
				continue;
			if (norder == cap)
				order = realloc(order, sizeof *order * (size_t)(cap *= 2));
			order[norder++] = all[i].v[c].c;
		}
	/* order j's worst ratio to the best config under MANY_ROWS (at rung at), and its worst
	 * ratio to order 0's from MANY_ROWS up; b the pick */
	double worst0 = 1, bworst = INFINITY, bloss = 1, tm0[NLADDER];
	int at0 = 0, bat = 0, b = 0;
	double *worsts = malloc(sizeof *worsts * (size_t)norder * 2), *losses = worsts + norder;
	int *ats = malloc(sizeof *ats * (size_t)norder);
	for (int j = 0; j < norder; j++) {
		double worst = 1, loss = 1;
		int at = 0;
		for (int i = 0; i < NLADDER; i++) {
			double tm = order_time(&all[i], &order[j], k, f, ladder[i], N, t);
			if (j == 0)
				tm0[i] = tm;
			if (ladder[i] < MANY_ROWS && tm / best[i] > worst) {
				worst = tm / best[i];
				at = i;
			}
			if (ladder[i] >= MANY_ROWS && tm / tm0[i] > loss)
				loss = tm / tm0[i];
		}
		worsts[j] = worst;
		losses[j] = loss;
		ats[j] = at;
		if (j == 0) {
			worst0 = worst;
			at0 = at;
		}
		if (j == 0 || (loss <= MANY_LOSS && worst < bworst)) {
			b = j;
			bworst = worst;
			bat = at;
			bloss = loss;
		}
	}
	if (bworst * REGRET_MAX > worst0)
		b = 0;
	/* far from the best under MANY_ROWS even so: many rows' loss weighed, not capped */
	int far = 0;
	double capped = b ? bworst : worst0, bscore = INFINITY;
	if (capped > FAR_WORST) {
		double w = log(REGRET_MAX) / log(MANY_LOSS);
		int least = 0;
		for (int j = 0; j < norder; j++) {
			double score = fmax(worsts[j], pow(losses[j], w));
			if (score < bscore) {
				bscore = score;
				least = j;
			}
		}
		if (bscore * REGRET_MAX <= capped) {
			far = 1;
			b = least;
			bworst = worsts[least];
			bat = ats[least];
			bloss = losses[least];
		}
	}
	free(worsts);
	free(ats);
	if (far)
		snprintf(
		    why, n,
		    "batch-invariant order, over the ladder of M 1 to %d: %.2fx the best config "
		    "at M=%lld, %.2fx M_REF's order from %d rows up; any order within %.2fx of "
		    "it there stays %.2fx the best under %d rows (over %.0f), so that loss is "
		    "weighed, %.2f as %.1f: this order's worst of the two, %.2fx, is the least",
		    M_REF, bworst, (long long)ladder[bat], bloss, MANY_ROWS, MANY_LOSS, capped,
		    MANY_ROWS, FAR_WORST, MANY_LOSS, REGRET_MAX, bscore);
	else if (b == 0 && worst0 <= REGRET_MAX)
		snprintf(
		    why, n,
		    "batch-invariant order: that of the pick at M_REF=%d rows, within %.2fx of "
		    "the best config at every M of the ladder under %d rows",
		    M_REF, worst0, MANY_ROWS);
	else if (b == 0)
		snprintf(why, n,
			 "batch-invariant order: that of the pick at M_REF=%d rows, %.2fx the best "
			 "config at M=%lld; no order within %.2fx of it from %d rows up is %.1fx "
			 "nearer the best under %d rows (the nearest: %.2fx)",
			 M_REF, worst0, (long long)ladder[at0], MANY_LOSS, MANY_ROWS, REGRET_MAX,
			 MANY_ROWS, bworst);
	else
		snprintf(
		    why, n,
		    "batch-invariant order, over the ladder of M 1 to %d: %.2fx the best config "
		    "at its worst M under %d rows (M=%lld), %.2fx M_REF's order from %d rows up "
		    "(at most %.2f); M_REF=%d rows' order (%s, r_block=%lld, tpr=%d) rejected: "
		    "%.2fx the best at M=%lld, over %.1f times as far",
		    M_REF, bworst, MANY_ROWS, (long long)ladder[bat], bloss, MANY_ROWS, MANY_LOSS,
		    M_REF, order[0].persistent ? "persistent" : "looped",
		    (long long)order[0].r_block, config_tpr(&order[0]), worst0,
		    (long long)ladder[at0], REGRET_MAX);
	Config pick = order[b];
	free(order);
	for (int i = 0; i < NLADDER; i++)
		free(all[i].v);
	return pick;
}

/* The candidates at M that keep ref's order (*built: 1 when none of the enumerated ones did and
 * the one below was built directly); -1 with d set when not even that one can be emitted. */
static int
invariant_cands(Cands *cs, const Config *ref, const Kernel *k, const Facts *f, int64_t M, int64_t N,
		const Target *t, int *built, Diag *d)
{
	rkc_enumerate(cs, k, f, M, N, t, rkc_m_cap(M, t), ref->vec, 0);
	*built = 0;
	if (keep_order(cs, ref))
		return 0;
	Cand x;
	Diag e = {0};
	if (build_order(&x, ref, k, f, M, N, t, &e))
		return diag(
		    d, "batch-invariant: no config at M = %lld keeps the order fixed from N: %s",
		    (long long)M, e.msg);
	cs->cap = 1;
	cs->v = realloc(cs->v, sizeof *cs->v);
	cs->v[0] = x;
	cs->n = 1;
	*built = 1;
	return 0;
}

/* The mode's two reasons: the order fixed (buf, n bytes) and why it is that order (why, the
 * rule's; said as its own reason). */
static void
invariant_reason(char *buf, size_t n, const Config *ref, int built)
{
	char cut[64];
	if (ref->cluster > 1)
		snprintf(cut, sizeof cut, "cut cluster=%d", ref->cluster);
	else if (ref->split > 1)
		snprintf(cut, sizeof cut, "cut split=%d", ref->split);
	else
		snprintf(cut, sizeof cut, "cut none");
	snprintf(buf, n,
		 "batch-invariant: tpr=%d, r_block=%lld, vec=%d, %s, %s: chosen from N, fixed for "
		 "any M; m_block, num_warps, smem, min_ctas and evict %s",
		 config_tpr(ref), (long long)ref->r_block, ref->vec,
		 ref->persistent ? "persistent" : "looped", cut,
		 built ? "built directly (no ranked candidate keeps the order at this M)"
		       : "ranked at this M among the configs that keep the order");
}

int
rkc_invariant_candidates(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
			 Choice *out, int max, Diag *d)
{
	char order_why[400];
	Config ref = invariant_ref(k, f, N, t, order_why, sizeof order_why);
	Cands cs = {0};
	int built;
	if (invariant_cands(&cs, &ref, k, f, M, N, t, &built, d)) {
		free(cs.v);
		return -1;
	}
	char fixed[400];
	invariant_reason(fixed, sizeof fixed, &ref, built);
	const char *first[] = {fixed, order_why, NULL};
	int n = rkc_ranked(&cs, k, f, M, N, t, rkc_m_cap(M, t), first, out, max, SETTLE_INVARIANT);
	free(cs.v);
	return n;
}

int
choose_rkc_invariant(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
		     Choice *out, Diag *d)
{
	return rkc_invariant_candidates(k, f, M, N, t, out, 1, d) < 0 ? -1 : 0;
}
