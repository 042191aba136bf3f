/* rkc tune: time the rkc policy's ranked candidates on the GPU; its pick (the seed) vs the best. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"
#include "tools/tools.h"

#define MAX_TOP 256
/* Candidates past the ranking's: helion2828's pick, the other fill, the other stash, the other
 * steps, odd warps, the row over clusters of 2 and 4 CTAs, the column pass at 2 and 4 CTAs an SM,
 * one CTA an SM more, a looser cap, the seed as ranked, and the best each dropping rule set
 * aside. */
#define MAX_EXTRA (12 + RKC_ASIDE)
/* The cluster sizes cand c tries (cluster_variant). */
static const int variant_clusters[] = {2, 4};
/* The CTAs an SM cand p tries (colpass_variant). */
static const int variant_colpass_ctas[] = {2, 4};
/* Cand k: at most this many registers over the cap one CTA higher (squeeze_variant). */
enum { SQUEEZE_REGS = 8 };

/* One candidate and what became of it. */
typedef struct {
	const Choice *ch;
	const char *policy; /* whose pick (or ranking) it comes from, for the manifest */
	int seed, helion;
	char variant; /* 'f': the seed with its kept rows' other fill; 's': with the other stash;
		       * 't': with the other steps; 'o': over an odd count of warps; 'c': over a
		       * cluster; 'p': the column pass at more CTAs an SM of fewer warps; 'k':
		       * one CTA an SM more; 'r': a register cap that holds the predicted
		       * registers; 'w': the seed as ranked, before a settle rule changed a
		       * ranked knob; 'x': set aside by a rule of the policy (rule) */
	const char *rule;
	enum { T_OK, T_UNCHECKED, T_FAIL, T_ERROR } status;
	double us, copy_pct;
	int regs, local_bytes;
	char config[256]; /* the manifest's config, JSON */
	char err[512];
} Trial;

/* What candidate i is beyond the ranking and helion2828's pick: its Trial.variant letter (0 for
 * those two) and, for 'x', the rule that set it aside. */
typedef struct {
	char variant;
	const char *rule;
} Tag;

/* The first candidate of the n tagged v, or -1. */
static int
tagged(const Tag *tag, int n, char v)
{
	for (int i = 0; i < n; i++)
		if (tag[i].variant == v)
			return i;
	return -1;
}

static const char *status_names[] = {"ok", "unchecked", "FAIL", "ERROR"};

/* Fastest first; what did not run or failed its check goes last, in candidate order. */
static int
by_time(const void *pa, const void *pb)
{
	const Trial *a = *(const Trial *const *)pa, *b = *(const Trial *const *)pb;
	int ra = a->status >= T_FAIL, rb = b->status >= T_FAIL;
	if (ra != rb)
		return ra - rb;
	if (!ra && a->us != b->us)
		return a->us < b->us ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* What a candidate is, as its row in the table names it ("<- seed (rkc)", ...); nothing for a
 * candidate of the ranking other than the seed. */
static void
what(Buf *line, const Trial *tr)
{
	if (tr->seed || tr->helion || tr->variant)
		buf_printf(line, "%s%s%s",
			   tr->seed ? "<- seed (rkc)"
			   : tr->variant == 'f'
			       ? (tr->ch->cfg.smem == 2 ? "<- the seed with smem=2"
							: "<- the seed with smem=1")
			   : tr->variant == 's' ? (tr->ch->cfg.stash ? "<- the seed with stash=1"
								     : "<- the seed with stash=0")
			   : tr->variant == 't' ? (tr->ch->cfg.steps ? "<- the seed with steps=1"
								     : "<- the seed with steps=0")
			   : tr->variant == 'o' ? "<- the seed over odd warps"
			   : tr->variant == 'c' ? "<- the seed over a cluster"
			   : tr->variant == 'p' ? "<- the column pass at more CTAs an SM"
			   : tr->variant == 'k' ? "<- the seed one CTA an SM higher"
			   : tr->variant == 'r' ? "<- the seed at a cap that holds its registers"
			   : tr->variant == 'w' ? "<- the seed as ranked (before the settle rules)"
			   : tr->variant == 'x' ? "<- set aside by "
						: "",
			   tr->variant == 'x' ? tr->rule : "",
			   tr->helion ? (tr->seed ? ", helion2828" : "<- helion2828") : "");
}

/* A candidate's place in the rkc policy's ranking (c; cand in the table), its config and the
 * cost model's time, as the table's columns have them. */
static void
cand_config(Buf *line, const Trial *tr, int c, int nrkc)
{
	if (c < nrkc)
		buf_printf(line, "%4d  ", c + 1);
	else
		buf_printf(line, "   %c  ", tr->variant ? tr->variant : 'h');
	size_t at = line->len;
	config_short(line, &tr->ch->cfg);
	int pad = 30 - (int)(line->len - at);
	if (isfinite(tr->ch->cost.us))
		buf_printf(line, "%*s %9.2f", pad > 0 ? pad : 0, "", tr->ch->cost.us);
	else /* a config the model cannot price: helion2828's pick of a kernel it has no rule for */
		buf_printf(line, "%*s %9s", pad > 0 ? pad : 0, "", "-");
}

/* A candidate's row in the table, rank its place by time; cand: its place in the rkc policy's
 * ranking ("h": helion2828's pick; added, "f": the seed with its kept rows' other fill, "s": the
 * seed with the other stash, "t": the seed with the other steps, "o": the seed over an odd count
 * of warps, "c": the seed's row over a cluster, "p": the seed's column pass at more CTAs an SM,
 * "k": the seed one CTA an SM higher, "r": the seed at a cap that holds its predicted registers,
 * "w": the seed as ranked, "x": the best candidate a rule set aside). */
static void
print_row(const Trial *tr, int rank, int c, int nrkc)
{
	Buf line = {0};
	if (tr->status < T_FAIL)
		buf_printf(&line, "%4d  ", rank);
	else
		buf_puts(&line, "   -  ");
	cand_config(&line, tr, c, nrkc);
	buf_puts(&line, " ");
	if (tr->status == T_ERROR)
		buf_printf(&line, "%10s %7s %5s %6s ", "-", "-", "-", "-");
	else
		buf_printf(&line, "%10.2f %6.1f%% %5d %6d ", tr->us, tr->copy_pct, tr->regs,
			   tr->local_bytes);
	buf_printf(&line, " %s", status_names[tr->status]);
	if (tr->seed || tr->helion || tr->variant)
		buf_printf(&line, "%*s", 10 - (int)strlen(status_names[tr->status]), "");
	what(&line, tr);
	puts(line.s);
	buf_free(&line);
}

/* The row as rkc tune --json prints it: rank null where the table has '-', cand "h", "f", "s",
 * "t", "o", "c", "p", "k", "r", "w" or "x" (with "rule", the rule that set it aside). */
static void
print_row_json(const Trial *tr, int rank, int c, int nrkc)
{
	Buf cfg = {0};
	config_short(&cfg, &tr->ch->cfg);
	json_t *o = json_pack(
	    "{s:s,s:o,s:o,s:s,s:s,s:o,s:s,s:b,s:b}", "kind", "candidate", "rank",
	    tr->status < T_FAIL ? json_integer(rank) : json_null(), "cand",
	    c < nrkc ? json_integer(c + 1) : json_stringn(tr->variant ? &tr->variant : "h", 1),
	    "config", cfg.s, "policy", tr->policy, "model_us", tool_json_real(tr->ch->cost.us),
	    "status", status_names[tr->status], "seed", tr->seed, "helion", tr->helion);
	if (tr->variant == 'x')
		json_object_set_new(o, "rule", json_string(tr->rule));
	if (tr->status == T_ERROR)
		json_object_set_new(o, "error", json_string(tr->err));
	else
		json_object_update_new(o, json_pack("{s:f,s:f,s:i,s:i}", "us", tr->us, "copy_pct",
						    tr->copy_pct, "regs", tr->regs, "local_bytes",
						    tr->local_bytes));
	buf_free(&cfg);
	tool_put_json(o);
}

/* The point tuned, for the summary. */
typedef struct {
	const Kernel *k;
	Type dtype;
	int64_t M, N;
	int n;
	double copy_gbps;
	const char *device;
} Point;

/* The seed against the best, and the TUNE line; seed_rank 0: the seed did not run and pass. */
static void
print_summary(const Point *p, const Trial *seed, const Trial *h, const Trial *best, int seed_rank)
{
	double best_us = best ? best->us : 0;
	Buf bs = {0}, ss = {0};
	config_short(&ss, &seed->ch->cfg);
	if (best)
		config_short(&bs, &best->ch->cfg);
	double ratio = seed_rank ? seed->us / best_us : INFINITY;
	if (seed_rank)
		printf(
		    "seed %s: %.2f us, rank %d of %d; best %s: %.2f us; seed/best %.3f (%s 5%%)\n",
		    ss.s, seed->us, seed_rank, p->n, bs.s, best_us, ratio,
		    ratio <= 1.05 ? "within" : "over");
	else
		printf("seed %s: %s; best %s\n", ss.s,
		       seed->status == T_FAIL ? "wrong results" : "did not run",
		       best ? bs.s : "none");
	/* Printed even without a best, so a bench table shows what became of the point. */
	printf(
	    "TUNE kernel=%s dtype=%s M=%lld N=%lld seed_us=%.2f best_us=%.2f seed_over_best=%.3f "
	    "seed_rank=%d candidates=%d copy_gbps=%.0f seed_status=%s helion_us=%.2f "
	    "helion_over_best=%.3f best_config=%s\n",
	    p->k->name, type_name(p->dtype), (long long)p->M, (long long)p->N, seed->us, best_us,
	    ratio, seed_rank, p->n, p->copy_gbps, status_names[seed->status], h->us,
	    best && h->status < T_FAIL ? h->us / best_us : INFINITY, best ? best->config : "none");
	buf_free(&bs);
	buf_free(&ss);
}

/* The TUNE line's fields as one JSON object; a ratio with nothing to divide by is null. */
static void
print_summary_json(const Point *p, const Trial *seed, const Trial *h, const Trial *best,
		   int seed_rank)
{
	double best_us = best ? best->us : 0;
	json_t *cfg = best ? json_loads(best->config, 0, NULL) : NULL;
	json_t *o = json_pack(
	    "{s:s,s:s,s:s,s:s,s:I,s:I,s:f,s:f,s:o,s:i,s:i,s:f,s:s,s:f,s:o,s:o}", "kind", "tune",
	    "device", p->device, "kernel", p->k->name, "dtype", tool_dtype_name(p->dtype), "M",
	    (json_int_t)p->M, "N", (json_int_t)p->N, "seed_us", seed->us, "best_us", best_us,
	    "seed_over_best", seed_rank ? json_real(seed->us / best_us) : json_null(), "seed_rank",
	    seed_rank, "candidates", p->n, "copy_gbps", p->copy_gbps, "seed_status",
	    status_names[seed->status], "helion_us", h->us, "helion_over_best",
	    best && h->status < T_FAIL ? json_real(h->us / best_us) : json_null(), "best_config",
	    cfg ? cfg : json_null());
	tool_put_json(o);
}

/* The seed over an odd count of warps, one row a CTA, where its row is persistent in one segment
 * and such a count splits the row's vectors evenly: the count nearest the seed's warps a row (by
 * ratio, the smaller on a tie), forced over the seed as --config would be. The policy offers odd
 * counts only where its best power-of-two config pads the row (docs/heuristics.md, "odd
 * warps"); tune times the nearest one wherever it applies. 0 with *o set, or -1 where none
 * applies. */
static int
odd_variant(const Config *seed, const Kernel *k, const Facts *f, int64_t M, int64_t N,
	    const Target *t, Config *o)
{
	if (!seed->persistent || config_segments(seed) > 1 ||
	    (seed->num_warps & (seed->num_warps - 1))) /* the seed's count is odd already */
		return -1;
	double want = config_tpr(seed) > 32 ? config_tpr(seed) / 32.0 : 1.0;
	int best = 0;
	for (int w = 3; w <= 32 && 32 * w <= t->max_threads_cta; w++)
		if (config_odd_fit(N, seed->vec, w) &&
		    (!best || fabs(log(w / want)) < fabs(log(best / want)) - 1e-9))
			best = w;
	if (!best)
		return -1;
	char forced[96];
	snprintf(forced, sizeof forced, "num_warps=%d,m_block=1,r_block=%lld", best, (long long)N);
	*o = *seed;
	return config_force(o, forced, k, f, M, N, t, POLICY_RKC, NULL, NULL);
}

/* The seed's row over a cluster of K CTAs, each a persistent segment of it (r_block the segment
 * rounded up to the seed's threads times vec), where the seed keeps a persistent row of one
 * segment in a CTA alone on its SM: forced over the seed as --config would be. At the widths
 * where a row only just fits a CTA, the register model can land under ptxas, which then holds
 * the row at 255 registers with nothing to hide its math; a cluster's CTAs hold a share of the
 * row each, several an SM. The policy does not cut such rows (docs/heuristics.md, "cluster");
 * tune times the cut. 0 with *o set, or -1 where none applies. */
static int
cluster_variant(const Choice *seed, int K, const Kernel *k, const Facts *f, int64_t M, int64_t N,
		const Target *t, Config *o)
{
	const Config *c = &seed->cfg;
	if (!c->persistent || config_segments(c) > 1 || seed->cost.ctas_per_sm != 1 ||
	    K > t->cluster_max)
		return -1;
	int64_t step = (int64_t)config_tpr(c) * c->vec, seg = (N + K - 1) / K;
	char forced[96];
	snprintf(forced, sizeof forced, "cluster=%d,r_block=%lld", K,
		 (long long)((seg + step - 1) / step * step));
	*o = *c;
	return config_force(o, forced, k, f, M, N, t, POLICY_RKC, NULL, NULL);
}

/* The seed whose column pass makes the whole kernel (colpass_whole) over CTAs of
 * COLPASS_MIN_WARPS warps, m of them an SM (min_ctas m, so ptxas caps the thread's registers
 * there), a grid of the SMs times m where the columns give each CTA a vector of 4. The policy
 * sizes the pass's rows a round trip to what its registers hold, up to 8, and so often takes one
 * CTA an SM. On an H200 (bench/results/h200-2026-12-02-colpass-odd.md, calls 4 and 5), 4 CTAs of 8
 * warps ran 0.52-0.88x the pick's time at 15 points of bias_gelu_back of 3 to 256 rows (odd
 * widths, bf16 and fp32), but 1.02-1.42x at 6 of 200 to 777 rows, 0.89-2.74x at 10 of a kernel
 * with two stores and two sums over rows (tests/codegen/colpass_whole.rk) and 1.00-1.11x at 2 of
 * bias_grad. The policy takes 4 in two classes (heuristics/rkc_settle.c, settle_colpass_ctas:
 * stored element by element with few round trips a thread, or only colsums stored where the model
 * says faster); tune times 2 and 4 beside any such seed (a seed already at 4 is not listed twice).
 * 0 with *o set, or -1 where none applies. */
static int
colpass_variant(const Choice *seed, int m, const Kernel *k, const Facts *f, int64_t M, int64_t N,
		const Target *t, Config *o)
{
	const Config *c = &seed->cfg;
	*o = *c;
	if (!colpass_whole(f->colsum_whole, c) || colpass_ctas_config(o, m, t->sms, N) ||
	    config_check_emit(k, f->dtype, M, N, o, NULL) ||
	    config_check_target(k, f->dtype, N, o, t, NULL))
		return -1;
	return 0;
}

/* The seed one CTA an SM higher (min_ctas + 1), where its register cap there is all that keeps
 * the policy from it: the capped count lands over that cap by at most SQUEEZE_REGS, which the
 * spill verdict rejects, while ptxas often fits the thread there anyway. On the H200 at 34 such
 * sm_90 picks (bench/results/h200-2026-11-29-squeeze.md): 0.989x where ptxas fit it without
 * spilling (20), 1.06x where it spilled (14), so the policy stays; tune times it. Not under a
 * persistent grid, whose size follows the CTAs an SM. 0 with *o set, or -1 where none applies. */
static int
squeeze_variant(const Choice *seed, const Kernel *k, const Facts *f, int64_t M, int64_t N,
		const Target *t, Choice *o)
{
	const Config *c = &seed->cfg;
	if (c->grid > 0 || c->min_ctas < 2)
		return -1;
	*o = *seed;
	o->cfg.min_ctas = c->min_ctas + 1;
	if (config_check_emit(k, f->dtype, M, N, &o->cfg, NULL) ||
	    config_check_target(k, f->dtype, N, &o->cfg, t, NULL))
		return -1;
	cost_model(f, &o->cfg, M, N, t, &o->cost);
	return o->cost.spills && o->cost.capped - o->cost.reg_limit <= SQUEEZE_REGS &&
		       o->cost.ctas_per_sm > seed->cost.ctas_per_sm
		   ? 0
		   : -1;
}

/* The seed at the most CTAs an SM whose register cap holds its predicted registers, where its own
 * min_ctas caps ptxas under them: ptxas then fits the thread by giving up what the model counted,
 * at times a row's loads in flight (mse bf16 262144x64 at 32 registers issues its second pair of
 * 16-byte loads after the first pair's arithmetic). On the H200 at 108 such points of the suites
 * and the held-out kernels (bench/results/h200-2026-12-01-heldout2.md, section 4c): 0.998x the
 * pick's time by geomean, 0.895x to 1.163x, so the policy keeps its count; tune times the other.
 * Not on a cooperative launch, whose grid needs the CTAs an SM it has (a lower count can leave
 * too few resident for the driver). 0 with *o set, or -1 where none applies. */
static int
loose_variant(const Choice *seed, const Kernel *k, const Facts *f, int64_t M, int64_t N,
	      const Target *t, Choice *o)
{
	const Config *c = &seed->cfg;
	int threads = 32 * c->num_warps, regs = seed->cost.regs, m = c->min_ctas - 1;
	if (c->min_ctas < 2 || target_reg_limit(t, threads, c->min_ctas) >= regs ||
	    config_cooperative(c, f->colsums, f->colsum_alone, N))
		return -1;
	while (m > 1 && target_reg_limit(t, threads, m) < regs)
		m--;
	*o = *seed;
	o->cfg.min_ctas = m;
	if (config_check_emit(k, f->dtype, M, N, &o->cfg, NULL) ||
	    config_check_target(k, f->dtype, N, &o->cfg, t, NULL))
		return -1;
	cost_model(f, &o->cfg, M, N, t, &o->cost);
	return 0;
}

/* Where cs[n]'s config stands among the first n candidates: its index, or n where none has it. */
static int
listed(const Choice *cs, int n)
{
	int i = 0;
	while (i < n && !config_equal(&cs[i].cfg, &cs[n].cfg))
		i++;
	return i;
}

/* The candidates, each tagged (tag, zeroed by the caller) with its Trial.variant: the rkc ranking
 * (*nrkc of them, the seed first; in the batch-invariant mode its ranking of the configs that
 * keep the row's order), then helion2828's pick unless the ranking holds it (*helion is its
 * index), then, where the seed keeps rows on chip, the seed with them filled the other way
 * (smem=1 for 2 and 2 for 1: the policy ranks no fill, it sets one on its pick; 'f') and, where
 * the kernel has a stash, the seed with the other stash where it fits (the policy ranks no stash
 * either; 's': from a stash that keeps no row, stash=0 filled by cp.async where it can be, and
 * then no 'f', as that stash has nothing to fill) and, where the seed's persistent row has a tail,
 * the seed with the other steps and the CTAs an SM rkc_min_ctas binds it to (the policy ranks no
 * steps; 't') and, outside the batch-invariant mode, the seed over an odd count of warps
 * (odd_variant; 'o') and its row over clusters (cluster_variant; 'c') and its column pass at more
 * CTAs an SM (colpass_variant; 'p'), and the seed one CTA an SM higher (squeeze_variant; 'k'), and
 * the seed at a cap that holds its predicted registers (loose_variant; 'r'), and, outside the
 * batch-invariant mode, the seed as the ranking had it where a settle rule changed a ranked knob
 * (rkc_as_ranked; 'w') and the best candidate each of the policy's dropping rules set aside
 * (rkc_set_aside; 'x', with the rule). Returns how many, or -1 with d set. */
static int
candidates(Choice *cs, Tag *tag, int top, int invariant, int *nrkc, int *helion, const Kernel *k,
	   const Facts *f, int64_t M, int64_t N, const Target *t, Diag *d)
{
	int n = invariant ? rkc_invariant_candidates(k, f, M, N, t, cs, top, d)
			  : rkc_candidates(k, f, M, N, t, cs, top);
	if (n < 0)
		return -1;
	/* Nothing fits the budget: the policy's fallback is its pick, and the only candidate. */
	if (n == 0 && choose(k, f, M, N, t, POLICY_RKC, &cs[n++], d))
		return -1;
	if (choose(k, f, M, N, t, POLICY_HELION2828, &cs[n], d))
		return -1;
	*nrkc = n;
	*helion = listed(cs, n);
	n += *helion == n;
	/* a stash that keeps no row leaves nothing to fill: no other fill, and its other stash
	 * keeps the rows filled by cp.async where the validator accepts it */
	int rowless = config_stash_rowless(f, &cs[0].cfg);
	if (cs[0].cfg.smem && !cs[0].cfg.persistent && !rowless) { /* kept rows: the other fill */
		cs[n] = cs[0];
		cs[n].cfg.smem = 3 - cs[0].cfg.smem;
		tag[n++].variant = 'f';
	}
	if (cs[0].cfg.smem && !cs[0].cfg.persistent && f->stashes) { /* the other stash */
		cs[n] = cs[0];
		cs[n].cfg.stash = !cs[0].cfg.stash;
		if (rowless) {
			cs[n].cfg.smem = 2;
			if (config_check_emit(k, f->dtype, M, N, &cs[n].cfg, NULL) ||
			    config_check_target(k, f->dtype, N, &cs[n].cfg, t, NULL))
				cs[n].cfg.smem = 1;
		}
		if (!config_check_emit(k, f->dtype, M, N, &cs[n].cfg, NULL) &&
		    !config_check_target(k, f->dtype, N, &cs[n].cfg, t, NULL)) {
			cost_model(f, &cs[n].cfg, M, N, t, &cs[n].cost);
			tag[n++].variant = 's';
		}
	}
	if (cs[0].cfg.persistent && k->plan->tail >= 0 && !cs[0].cfg.grid) { /* the other steps */
		cs[n] = cs[0];
		cs[n].cfg.steps = !cs[0].cfg.steps;
		cs[n].cfg.min_ctas = rkc_min_ctas(f, &cs[n].cfg, M, N, t, &cs[n].cost);
		if (!config_check_emit(k, f->dtype, M, N, &cs[n].cfg, NULL) &&
		    !config_check_target(k, f->dtype, N, &cs[n].cfg, t, NULL) &&
		    listed(cs, n) == n) {
			cost_model(f, &cs[n].cfg, M, N, t, &cs[n].cost);
			tag[n++].variant = 't';
		}
	}
	if (!invariant && !odd_variant(&cs[0].cfg, k, f, M, N, t, &cs[n].cfg) &&
	    listed(cs, n) == n) { /* not in the ranking already */
		cost_model(f, &cs[n].cfg, M, N, t, &cs[n].cost);
		tag[n++].variant = 'o';
	}
	for (size_t j = 0; !invariant && j < sizeof variant_clusters / sizeof *variant_clusters;
	     j++) {
		if (cluster_variant(&cs[0], variant_clusters[j], k, f, M, N, t, &cs[n].cfg) ||
		    listed(cs, n) < n)
			continue;
		cost_model(f, &cs[n].cfg, M, N, t, &cs[n].cost);
		tag[n++].variant = 'c';
	}
	for (size_t j = 0;
	     !invariant && j < sizeof variant_colpass_ctas / sizeof *variant_colpass_ctas; j++) {
		if (colpass_variant(&cs[0], variant_colpass_ctas[j], k, f, M, N, t, &cs[n].cfg) ||
		    listed(cs, n) < n)
			continue;
		cost_model(f, &cs[n].cfg, M, N, t, &cs[n].cost);
		tag[n++].variant = 'p';
	}
	if (!squeeze_variant(&cs[0], k, f, M, N, t, &cs[n]) && listed(cs, n) == n)
		tag[n++].variant = 'k';
	if (!loose_variant(&cs[0], k, f, M, N, t, &cs[n]) && listed(cs, n) == n)
		tag[n++].variant = 'r';
	if (!invariant && rkc_as_ranked(k, f, M, N, t, &cs[n]) && listed(cs, n) == n)
		tag[n++].variant = 'w';
	if (!invariant) {
		Choice aside[RKC_ASIDE];
		const char *why[RKC_ASIDE];
		int na = rkc_set_aside(k, f, M, N, t, aside, why);
		for (int i = 0; i < na; i++) {
			cs[n] = aside[i];
			if (listed(cs, n) < n)
				continue;
			tag[n] = (Tag){'x', why[i]};
			n++;
		}
	}
	return n;
}

static int
tune_run(const Args *a)
{
	const char *path = a->operands[0], *shape = arg_value(a, "--shape");
	const char *top_s = arg_value(a, "--top");
	int top = 24, check = !arg_count(a, "--no-check"), json = arg_count(a, "--json");
	int list = arg_count(a, "--list");
	if (list && json) {
		fprintf(stderr, "rkc tune: error: --list prints a table; it takes no --json\n");
		return 2;
	}
	RunOpts ro = {.time = 1};
	Request rq;
	if (tool_request(a, &rq) || tool_run_opts(a, &ro))
		return 2;
	if (top_s) {
		char *end;
		long n = strtol(top_s, &end, 10);
		if (*end || end == top_s || n < 1 || n > MAX_TOP) {
			fprintf(stderr, "rkc tune: error: --top takes 1 to %d, not '%s'\n", MAX_TOP,
				top_s);
			return 2;
		}
		top = (int)n;
	}
	Type dtype = rq.dtype;
	int64_t M = rq.M, N = rq.N;
	const char *dtype_s = tool_dtype_name(dtype);
	ro.check = check;

	Kernel *k = tool_load_kernel(path);
	if (!k)
		return 1;
	Diag d = {0};
	Facts f;
	Target t;
	Choice *cs = calloc((size_t)top + MAX_EXTRA, sizeof *cs);
	Trial *ts = calloc((size_t)top + MAX_EXTRA, sizeof *ts);
	Trial **order = calloc((size_t)top + MAX_EXTRA, sizeof *order);
	Tag *tag = calloc((size_t)top + MAX_EXTRA, sizeof *tag);
	char *in_json = NULL, *tol_json = NULL;
	Gpu *g = NULL;
	int status = 1, n = 0, nrkc = 0, helion = 0;
	/* the pipeline's facts and target, then the candidates it compiles one by one */
	rq.k = k;
	Result base;
	int failed = rkc_compile(&rq, &base, &d);
	f = base.facts;
	t = base.target;
	rkc_result_free(&base);
	if (failed || (n = candidates(cs, tag, top, rq.batch_invariant, &nrkc, &helion, k, &f, M, N,
				      &t, &d)) < 0)
		goto out;
	for (int i = 0; i < n; i++) {
		Trial *tr = &ts[i];
		tr->ch = &cs[i];
		tr->seed = i == 0;
		tr->helion = i == helion;
		tr->variant = tag[i].variant;
		tr->rule = tag[i].rule;
		tr->policy = i < nrkc || tr->variant ? "rkc" : "helion2828";
		order[i] = tr;
	}
	if (list) { /* what would be timed, in tune's order: no inputs, no GPU */
		printf("%s %s %lldx%lld: %d candidates, not timed (model_us: the cost model's)\n",
		       k->name, dtype_s, (long long)M, (long long)N, n);
		printf("cand  %-30s %9s\n", "config", "model_us");
		for (int i = 0; i < n; i++) {
			Buf line = {0};
			cand_config(&line, &ts[i], i, nrkc);
			if (ts[i].seed || ts[i].helion || ts[i].variant)
				buf_puts(&line, "  ");
			what(&line, &ts[i]);
			puts(line.s);
			buf_free(&line);
		}
		status = 0;
		goto out;
	}
	if (!(in_json =
		  tool_read_data(arg_value(a, "--inputs"), "inputs.json", &ro.inputs_file, &d)) ||
	    !(tol_json = tool_read_data(arg_value(a, "--tolerances"), "tolerances.json",
					&ro.tol_file, &d)) ||
	    !(g = gpu_open(&d)))
		goto out;
	ro.inputs_json = in_json;
	ro.tol_json = tol_json;
	/* one set of inputs and one reference for every candidate */
	if (!(ro.data = run_data_new(k, dtype, M, N, &ro, &d)))
		goto out;
	if (!json) {
		int fill = tagged(tag, n, 'f'), stash = tagged(tag, n, 's'),
		    steps = tagged(tag, n, 't');
		printf("device: %s\n", gpu_describe(g));
		printf(
		    "%s %s %lldx%lld: %d candidates: the rkc policy's first %d by its "
		    "ranking%s%s%s%s%s%s%s%s%s%s%s\n",
		    k->name, dtype_s, (long long)M, (long long)N, n, nrkc,
		    helion == nrkc ? ", then helion2828's pick" : " (helion2828's pick among them)",
		    fill < 0		     ? ""
		    : cs[fill].cfg.smem == 2 ? ", then the seed with smem=2"
					     : ", then the seed with smem=1",
		    stash < 0		  ? ""
		    : cs[stash].cfg.stash ? ", then the seed with stash=1"
					  : ", then the seed with stash=0",
		    steps < 0		  ? ""
		    : cs[steps].cfg.steps ? ", then the seed with steps=1"
					  : ", then the seed with steps=0",
		    tagged(tag, n, 'o') < 0 ? "" : ", then the seed over odd warps",
		    tagged(tag, n, 'c') < 0 ? "" : ", then the seed over clusters",
		    tagged(tag, n, 'p') < 0 ? "" : ", then the column pass at more CTAs an SM",
		    tagged(tag, n, 'k') < 0 ? "" : ", then the seed one CTA an SM higher",
		    tagged(tag, n, 'r') < 0 ? ""
					    : ", then the seed at a cap that holds its registers",
		    tagged(tag, n, 'w') < 0 ? "" : ", then the seed as ranked",
		    tagged(tag, n, 'x') < 0 ? "" : ", then the best the policy's rules set aside");
	}
	fflush(stdout);

	for (int i = 0; i < n; i++) {
		Trial *tr = &ts[i];
		int rkc = i < nrkc || tr->variant;
		Manifest m;
		Buf ptx = {0};
		RunResult r;
		d = (Diag){0};
		Request one = rq;
		one.cfg = &tr->ch->cfg;
		one.policy = rkc ? POLICY_RKC : POLICY_HELION2828;
		/* helion2828's pick is timed for comparison, outside the mode */
		one.batch_invariant = rq.batch_invariant && rkc;
		one.emit = 1;
		int rc = tool_build(&one, &ptx, &m, &d) || run_point(&r, g, k, &m, ptx.s, &ro, &d);
		buf_free(&ptx);
		Buf cfg = {0};
		config_short(&cfg, &tr->ch->cfg);
		if (rc) {
			tr->status = T_ERROR;
			const char *msg = d.msg;
			while (!strncmp(msg, "error: ", 7))
				msg += 7;
			snprintf(tr->err, sizeof tr->err, "%s", msg);
			fprintf(stderr, "rkc tune: %s %s %s: %s: error: %s\n", k->name, dtype_s,
				shape, cfg.s, msg);
			buf_free(&cfg);
			continue;
		}
		tr->status = !check ? T_UNCHECKED : r.pass ? T_OK : T_FAIL;
		tr->us = r.us;
		tr->copy_pct = r.copy_gbps > 0 ? 100 * r.gbps / r.copy_gbps : 0;
		tr->regs = r.regs;
		tr->local_bytes = r.local_bytes;
		snprintf(tr->config, sizeof tr->config, "%s", m.config);
		if (tr->status == T_FAIL)
			fprintf(stderr, "rkc tune: %s %s %s: %s: wrong results, not a candidate\n",
				k->name, dtype_s, shape, cfg.s);
		buf_free(&cfg);
		if (r.copy_gbps > 0)
			ro.copy_gbps = r.copy_gbps;
	}
	d.set = 0;
	qsort(order, (size_t)n, sizeof *order, by_time);

	int seed_rank = 0;
	for (int i = 0; i < n; i++)
		if (order[i]->seed && order[i]->status < T_FAIL)
			seed_rank = i + 1;
	if (json) {
		for (int i = 0; i < n; i++)
			print_row_json(order[i], i + 1, (int)(order[i] - ts), nrkc);
	} else {
		printf("rank  cand  %-30s %9s %10s %7s %5s %6s  status\n", "config", "model_us",
		       "us", "%copy", "regs", "local");
		for (int i = 0; i < n; i++)
			print_row(order[i], i + 1, (int)(order[i] - ts), nrkc);
	}
	const Trial *best = order[0]->status < T_FAIL ? order[0] : NULL;
	if (!best)
		fprintf(stderr, "rkc tune: %s %s %s: no candidate ran and passed its check\n",
			k->name, dtype_s, shape);
	Point pt = {k, dtype, M, N, n, ro.copy_gbps, gpu_describe(g)};
	if (json)
		print_summary_json(&pt, &ts[0], &ts[helion], best, seed_rank);
	else
		print_summary(&pt, &ts[0], &ts[helion], best, seed_rank);
	status = seed_rank ? 0 : 1;
out:
	if (d.set)
		fprintf(stderr, "rkc tune: %s\n", d.msg);
	run_data_free(ro.data);
	gpu_close(g);
	free(in_json);
	free(tol_json);
	free(order);
	free(tag);
	free(ts);
	free(cs);
	kernel_free(k);
	return status;
}

const Cmd cmd_tune = {
    .name = "tune",
    .operands = "K.rk",
    .min_operands = 1,
    .max_operands = 1,
    .missing = "no kernel file given",
    .summary = "On a GPU: time a policy's best-ranked configs at one shape; its pick against the "
	       "best.",
    .opts =
	(const Opt[]){
	    OPT_SHAPE,
	    OPT_DTYPE,
	    OPT_ARCH,
	    OPT_BATCH_INVARIANT,
	    {"--top", "N", "how many of the rkc policy's ranking to time, 1 to 256 (default 24)",
	     0},
	    OPT_SEED,
	    OPT_COPY_GBPS,
	    {"--no-check", NULL, "time only; do not check each candidate against the reference", 0},
	    OPT_INPUTS,
	    OPT_TOLERANCES,
	    {"--json", NULL, "a JSON object a line: each candidate's row, then the TUNE line's", 0},
	    {"--list", NULL,
	     "list the candidates with the model's times and exit: no GPU, nothing timed", 0},
	    {0},
	},
    .about =
	"Compiles and times the rkc policy's first N candidates in its own ranking (the first is "
	"its\npick, the seed), the helion2828 policy's pick and, where the seed keeps rows on "
	"chip, the seed\nwith the other fill (smem=1 or 2) and, where the kernel has a stash, "
	"the other stash (stash=0 or\n1; from a stash that keeps no row, stash=0 with the rows "
	"filled by cp.async where it can be, and\nno other fill), and, where the seed's "
	"persistent row has a tail, the other steps (steps=0 or 1),\nand, where an odd count of "
	"warps splits its persistent row evenly, the seed over the nearest\nsuch count, and, "
	"where the seed's persistent row is alone on its SM, the row over clusters of 2\nand 4 "
	"CTAs, and, where the column pass makes the whole kernel, that pass at 2 and 4 CTAs an "
	"SM\nof 8 warps, and, where its register cap alone keeps one CTA an SM more from it, the "
	"seed so,\nand, where its cap is under the registers the model predicts, the seed at the "
	"most CTAs an SM\nwhose cap holds them, and, where a settle rule changed a knob the "
	"ranking chose, the seed as\nranked, and the best candidate each of the policy's "
	"dropping rules set aside; checks each\nagainst the reference and prints them fastest "
	"first, then a TUNE line with the seed's time over\nthe best one's. Exit 0 when the seed "
	"and at least one candidate ran and passed, 1 otherwise\n(docs/tune.md). With --list it "
	"prints the same candidates in that order with the cost model's\ntimes, and exits 0 "
	"without a GPU. With --batch-invariant the rkc candidates keep the mode's\nreduction "
	"order; helion2828's pick is timed outside the mode, for comparison.",
    .run = tune_run,
};
