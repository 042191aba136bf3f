/* Policy rkc's reasons: a pick's rule for each knob, the numbers compared, the alternative lost. */
#include <string.h>

#include "heuristics/rkc.h"

/* The most characters of a knob's best alternative (vs_knob), with its terminating NUL. */
enum { ALT_LEN = 320 };

/* Whether c differs from b's config in the knob. */
enum { K_MODE, K_WARPS, K_MBLOCK, K_SPLIT, K_CLUSTER, K_SMEM, K_GRID, K_POW2, K_COLPASS };
static int
differs(const Config *c, const Cand *b, int knob)
{
	return knob == K_MODE	   ? c->persistent != b->c.persistent
	       : knob == K_WARPS   ? c->num_warps != b->c.num_warps
	       : knob == K_MBLOCK  ? c->m_block != b->c.m_block
	       : knob == K_SPLIT   ? c->split != b->c.split
	       : knob == K_CLUSTER ? c->cluster != b->c.cluster || c->coop != b->c.coop
	       : knob == K_SMEM	   ? c->smem != b->c.smem
	       : knob == K_POW2	   ? !(c->num_warps & (c->num_warps - 1))
	       : knob == K_COLPASS ? c->colpass != b->c.colpass
				   : (c->grid > 0) != (b->c.grid > 0) ||
					 c->dynamic != b->c.dynamic || c->ahead != b->c.ahead;
}

/* The best candidate that differs from b in the knob, or NULL. */
static const Cand *
best_other(const Cands *cs, const Cand *b, int knob)
{
	const Cand *best = NULL;
	for (int i = 0; i < cs->n; i++)
		if (differs(&cs->v[i].c, b, knob) && (!best || rkc_better(&cs->v[i], best)))
			best = &cs->v[i];
	return best;
}

static const char *
vs(char *buf, size_t n, const Cand *b, const Cand *alt)
{
	if (!alt) {
		snprintf(buf, n, "no other value fits");
		return buf;
	}
	Buf s = {0};
	config_short(&s, &alt->c);
	int n0 = snprintf(buf, n, "best alternative %s: %.1f us (%+.1f%%)", s.s, alt->cost.us,
			  100 * (alt->cost.us / b->cost.us - 1));
	double occ = alt->score / alt->cost.us / (alt->c.grid > 0 ? GRID_COST : 1) /
			 (alt->serial ? 1 + SHORT_ROW_SERIAL : 1) -
		     1;
	char part[3][48];
	int np = 0;
	if (occ > 1e-9)
		snprintf(part[np++], sizeof part[0], "occupancy");
	if (alt->serial)
		snprintf(part[np++], sizeof part[0], "%d elements a thread of a short row",
			 alt->serial);
	if (alt->c.grid > 0) {
		const char *as = np ? "as " : "";
		snprintf(part[np++], sizeof part[0], "%sa persistent grid", as);
	}
	if (np > 0 && n0 >= 0 && (size_t)n0 < n) {
		int w = snprintf(buf + n0, n - n0, ", ranked +%.0f%% for %s",
				 100 * (alt->score / alt->cost.us - 1), part[0]);
		for (int i = 1; i < np && w >= 0 && (size_t)(n0 += w) < n; i++)
			w = snprintf(buf + n0, n - n0, "%s%s", i == np - 1 ? " and " : ", ",
				     part[i]);
	}
	buf_free(&s);
	return buf;
}

/* vs for the knob: the best candidate that differs in it; where none does but a rule set one
 * aside (rkc_set_aside), the best of those with the rule's name, so that "no other value fits"
 * is said only where none was offered. */
static const char *
vs_knob(char *buf, size_t n, const Cands *cs, const Cand *b, int knob)
{
	const Cand *alt = best_other(cs, b, knob);
	int rule = -1;
	for (int r = 0; !alt && r < NASIDE; r++)
		if (cs->aside[r].c.num_warps && differs(&cs->aside[r].c, b, knob) &&
		    (rule < 0 || rkc_better(&cs->aside[r], &cs->aside[rule])))
			rule = r;
	if (alt || rule < 0)
		return vs(buf, n, b, alt);
	int n0 = snprintf(buf, n, "no other value among the configs kept; set aside by %s, ",
			  rkc_aside_rules[rule]);
	if (n0 >= 0 && (size_t)n0 < n)
		vs(buf + n0, n - n0, b, &cs->aside[rule]);
	return buf;
}

/* The best-scored candidate that ties b (within TIE, the same structural knobs) and lost to it
 * through the tie lost() names, or NULL. */
static const Cand *
tied_loser(const Cands *cs, const Cand *b, int (*lost)(const Cand *x, const Cand *b))
{
	const Cand *y = NULL;
	for (int i = 0; i < cs->n; i++) {
		const Cand *x = &cs->v[i];
		if (x->score < b->score * (1 - TIE) || b->score < x->score * (1 - TIE) ||
		    rkc_structure_tie(&x->c, &b->c, x->heavy) || !lost(x, b))
			continue;
		if (!y || x->score < y->score)
			y = x;
	}
	return y;
}

/* x lost to b through DISPATCH_NEAR: more CTAs near the dispatch bound */
static int
lost_dispatch(const Cand *x, const Cand *b)
{
	return x->cost.ctas > b->cost.ctas && rkc_dispatch_tie(x, b);
}

/* x lost to b through the rows tie although the model ranked it ahead: more rows a CTA */
static int
lost_rows(const Cand *x, const Cand *b)
{
	return rkc_rows_tie(&b->c) && x->c.m_block > b->c.m_block && x->score < b->score &&
	       !rkc_dispatch_tie(x, b);
}

/* The best candidate within a tie of b that lost only at the row ahead's knob, turned round for
 * heavy math (Cand.heavy): a grid like b's but with fewer blocks ahead; or NULL. */
static const Cand *
ahead_loser(const Cands *cs, const Cand *b)
{
	const Cand *y = NULL;
	for (int i = 0; b->heavy && i < cs->n; i++) {
		const Cand *x = &cs->v[i];
		Config g = x->c;
		g.ahead = b->c.ahead;
		if (x->score < b->score * (1 - TIE) || b->score < x->score * (1 - TIE) ||
		    x->c.ahead >= b->c.ahead || x->c.r_block != b->c.r_block ||
		    rkc_structure_tie(&g, &b->c, 0))
			continue;
		if (!y || x->score < y->score)
			y = x;
	}
	return y;
}

/* The reasons for a pick the ties decided: the best candidate each tie set aside, and the
 * numbers behind it. */
static void
tie_reasons(Choice *out, const Cands *cs, const Cand *b, const Facts *f)
{
	Buf s = {0};
	const Cand *a = ahead_loser(cs, b);
	if (a) {
		config_short(&s, &a->c);
		choice_reason(
		    out,
		    "a tie (within %.0f%%) with %s (%.1f us, %d blocks ahead) goes to the "
		    "next block ahead (ahead=%d): the row spends %d instructions an element "
		    "(%d or more), math the model does not count, through which a CTA "
		    "without the next block's loads waits for them",
		    100 * TIE, s.s, a->cost.us, a->c.ahead, b->c.ahead, f->ops, AHEAD_MATH_OPS);
		buf_free(&s);
	}
	const Cand *y = tied_loser(cs, b, lost_dispatch);
	if (y) {
		const Cost *n = rkc_dispatch_near(&y->cost) ? &y->cost : &b->cost;
		config_short(&s, &y->c);
		choice_reason(
		    out,
		    "a tie (within %.0f%%) with %s (%.1f us, %lld CTAs) goes to the fewer "
		    "CTAs: the start of %lld CTAs (%.2f us) is at least %.0f%% of the %.2f "
		    "us HBM takes, and the model's HBM time runs long on short rows",
		    100 * TIE, s.s, y->cost.us, (long long)y->cost.ctas, (long long)n->ctas,
		    n->dispatch_us, 100 * DISPATCH_NEAR, n->stream_us);
		buf_free(&s);
	}
	y = tied_loser(cs, b, lost_rows);
	if (y) {
		config_short(&s, &y->c);
		choice_reason(
		    out,
		    "a tie (within %.0f%%) with %s (%.1f us, %d rows a CTA) goes to the "
		    "fewer rows a CTA: an SM takes its next CTA only once every row of the "
		    "last one is stored",
		    100 * TIE, s.s, y->cost.us, y->c.m_block);
		buf_free(&s);
	}
}

/* vec: 16-byte accesses, the widest width dividing N for rows that must start aligned (sums over
 * rows, config_vec), or the batch-invariant mode's width; and, where the arrays of N columns
 * differ in width, which one sets it. */
static void
why_vec(Choice *out, const Cand *b, const Kernel *k, const Facts *f, int64_t N)
{
	const Config *c = &b->c;
	int widest, narrow, size = config_elem_sizes(k, f->dtype, &widest, &narrow);
	int dflt = config_vec(k, f->dtype, N);
	char mixed[256] = ""; /* the text below (95 bytes) and a name of up to 100 */
	if (narrow < size && widest >= 0)
		snprintf(
		    mixed, sizeof mixed,
		    "; size %d is %s's, the widest array of N columns: the %d-byte ones move %d "
		    "bytes an access",
		    size, k->params[widest].name, narrow, c->vec * narrow);

	if (c->vec < dflt)
		choice_reason(out,
			      "vec=%d: the batch-invariant mode's, the largest power of two that "
			      "divides N = %lld up to the default %d, so every row starts aligned "
			      "and no row is cut into head, body and tail by its position%s",
			      c->vec, (long long)N, dflt, mixed);
	else if (dflt < 16 / size)
		choice_reason(out,
			      "vec=%d: %d-byte accesses, the widest vec of at most 16 bytes that "
			      "divides N = %lld: sums over rows need rows that start aligned (a "
			      "thread keeps the same columns in every row)%s",
			      c->vec, c->vec * size, (long long)N, mixed);
	else if (N * size % 16 == 0)
		choice_reason(
		    out, "vec=%d: 16-byte accesses, N*size = %lld*%d bytes is a multiple of 16%s",
		    c->vec, (long long)N, size, mixed);
	else
		choice_reason(
		    out,
		    "vec=%d: 16-byte accesses over each row's aligned body; N*size = "
		    "%lld*%d bytes is not a multiple of 16, so a row's misaligned head and "
		    "tail go element by element%s",
		    c->vec, (long long)N, size, mixed);
}

/* Persistent or looped, and r_block. */
static void
why_mode(Choice *out, const Cands *cs, const Cand *b, const Facts *f, const Target *t, int64_t N)
{
	const Config *c = &b->c;
	const Cost *o = &b->cost;
	int tpr = config_tpr(c);
	int64_t seg = cdiv(N, config_segments(c));
	int64_t ept = c->r_block / tpr;
	char alt[ALT_LEN];

	const Cand *m = best_other(cs, b, K_MODE);
	if (colpass_whole(f->colsum_whole, c))
		choice_reason(
		    out,
		    "%s r_block=%lld: the column pass makes the whole kernel and no row "
		    "is made, so neither the mode nor r_block changes the code; the CTA's "
		    "%d threads do; %s",
		    c->persistent ? "persistent" : "looped", (long long)c->r_block,
		    32 * c->num_warps, vs(alt, sizeof alt, b, m));
	else if (c->persistent)
		choice_reason(
		    out,
		    "persistent r_block=%lld: a thread holds %d tile(s) x %lld elements "
		    "(%lld bytes), %d regs <= %d (7/8 of the limit %d), and reads the row once; %s",
		    (long long)c->r_block,
		    f->held_tiles - (smem_colsums(f->colsums, c) ? f->colsums : 0), (long long)ept,
		    (long long)o->live_bytes, o->regs, o->reg_limit - o->reg_limit / 8,
		    o->reg_limit, vs(alt, sizeof alt, b, m));
	else {
		char why[200];
		if (m)
			vs(why, sizeof why, b, m);
		else {
			/* the warp count where persistent comes closest to fitting */
			int bw = 1, bregs = 0, blim = 1;
			for (int w = 1; 32 * w <= t->max_threads_cta; w *= 2) {
				int64_t pe = cdiv(seg, 32LL * w * c->vec) * c->vec;
				int r = regs_predict(f, 1, pe, c->vec);
				int lim = target_reg_limit(t, 32 * w, 1);
				lim -= lim / 8;
				if (w == 1 || (double)r / lim < (double)bregs / blim)
					bw = w, bregs = r, blim = lim;
			}
			snprintf(
			    why, sizeof why,
			    "persistent does not fit: %d tile(s) a thread need %d regs > %d (7/8 "
			    "of the limit) even at the closest fit, %d warps a row",
			    f->held_tiles, bregs, blim, bw);
		}
		choice_reason(
		    out,
		    "looped r_block=%lld: %d pass(es) over the row (%s), %lld chunk(s) of "
		    "%lld elements a thread; %s",
		    (long long)c->r_block, f->passes, f->chain, (long long)cdiv(seg, c->r_block),
		    (long long)ept, why);
	}
}

/* num_warps, odd warps and m_block, and the ties that decided among them. */
static void
why_warps(Choice *out, const Cands *cs, const Cand *b, const Facts *f, const Target *t, int64_t N,
	  int64_t mcap)
{
	const Config *c = &b->c;
	const Cost *o = &b->cost;
	int tpr = config_tpr(c);
	char alt[ALT_LEN];

	choice_reason(out, "num_warps=%d (%d threads per row, %d row(s) per CTA): %.1f us; %s",
		      c->num_warps, tpr, c->m_block, o->us,
		      vs_knob(alt, sizeof alt, cs, b, K_WARPS));
	const Cand *p2 = best_other(cs, b, K_POW2);
	if (p2 && (c->num_warps & (c->num_warps - 1))) {
		Buf s = {0};
		config_short(&s, &p2->c);
		choice_reason(
		    out,
		    "odd warps: the best config over a power of two of warps, %s (%.1f "
		    "us), pads the row to %lld columns, whose lanes past N=%lld the model "
		    "does not cost; so the row was also offered to the counts of warps "
		    "that split its %lld vectors of %d evenly",
		    s.s, p2->cost.us, (long long)p2->c.r_block, (long long)N,
		    (long long)(N / c->vec), c->vec);
		buf_free(&s);
	}
	char packed[96] = "";
	if (o->slots < (int64_t)t->sms * o->ctas_per_sm)
		snprintf(packed, sizeof packed, " of %lld slots (whole clusters of %d, %s)",
			 (long long)o->slots, c->cluster,
			 o->slots_by ? o->slots_by : "over the SMs");
	choice_reason(out,
		      "m_block=%d (cap %lld = pp2(M/SMs), so every SM gets a CTA): %lld CTAs, %d "
		      "resident per SM (%s-limited), %.2f waves%s; %s",
		      c->m_block, (long long)mcap, (long long)o->ctas, o->ctas_per_sm, o->limit,
		      o->waves, packed, vs_knob(alt, sizeof alt, cs, b, K_MBLOCK));
	tie_reasons(out, cs, b, f);
}

/* split and cluster: how a row is cut over CTAs. */
static void
why_cut(Choice *out, const Cands *cs, const Cand *b, const Kernel *k, const Facts *f,
	const Target *t, int64_t M, int64_t N)
{
	const Config *c = &b->c;
	const Cost *o = &b->cost;
	int64_t seg = cdiv(N, config_segments(c));
	char alt[ALT_LEN];

	if (!f->split_ok)
		choice_reason(out, "split=1: not applicable, the kernel has %s",
			      plan_no_split(k->plan));
	else if (c->cluster > 1)
		choice_reason(out,
			      "split=1: the cluster cuts the row instead (no workspace, no second "
			      "phase); %s",
			      vs_knob(alt, sizeof alt, cs, b, K_SPLIT));
	else
		choice_reason(out, "split=%d: %lld row(s) x %d segment(s) of %lld on %d SMs; %s",
			      c->split, (long long)M, c->split, (long long)seg, t->sms,
			      vs_knob(alt, sizeof alt, cs, b, K_SPLIT));
	if (c->cluster > 1 && c->coop) {
		int most = t->cluster_max > 1 ? t->cluster_max : 1;
		char why[400];
		int64_t bands = c->grid / c->cluster, row_bytes;
		int rows = config_band_grid(c) &&
			   rkc_band_grid_fits(f, c, M, N, t, &row_bytes) == BAND_ROWS;
		if (rows && M >= t->sms && c->smem)
			snprintf(
			    why, sizeof why,
			    "%lld band(s) walk the %lld rows (grid=%d), each CTA keeping its "
			    "segment on chip, where no cluster keeps a row (%.2f MB kept) at two "
			    "CTAs an SM (%d CTAs x half of %d bytes)",
			    (long long)bands, (long long)M, c->grid,
			    (double)N * f->kept_bytes / 1e6, t->cluster_max, t->smem_per_sm);
		else if (rows && !c->smem) {
			BandHold h;
			rkc_band_streams(f, c, N, t, &h);
			snprintf(
			    why, sizeof why,
			    "%lld band(s) walk the %lld rows (grid=%d), so %lld row(s) are in "
			    "flight, read again from the L2: they and the outputs they write "
			    "(%.1f MB) %s the L2 (%.1f MB), where every row at once would keep "
			    "%.1f MB, and a thread's chunk (%lld words) %s the %d registers of %d "
			    "CTAs an SM",
			    (long long)bands, (long long)M, c->grid, (long long)bands,
			    h.bytes / 1e6, h.bytes <= h.l2 ? "fit" : "pass", h.l2 / 1e6,
			    M * row_bytes / 1e6, (long long)h.words,
			    h.words < h.regs ? "stays under" : "is not under", h.regs, h.per_sm);
		} else if (rows)
			snprintf(
			    why, sizeof why,
			    "%lld band(s) walk the %lld rows (grid=%d), so %lld row(s) are in "
			    "flight (%.1f MB a later pass reads again), where every row at once "
			    "would keep %.1f MB against half the L2 (%.1f MB)",
			    (long long)bands, (long long)M, c->grid, (long long)bands,
			    bands * row_bytes / 1e6, M * row_bytes / 1e6, t->l2_bytes / 2e6);
		else if (M * most < t->sms)
			snprintf(why, sizeof why,
				 "%lld row(s) times the largest cluster (%d CTAs) is under %d SMs",
				 (long long)M, most, t->sms);
		else
			snprintf(why, sizeof why,
				 "%lld rows are under %d SMs and the persistent row makes one "
				 "exchange",
				 (long long)M, t->sms);
		choice_reason(out,
			      "cluster=%d coop=1: %s, so each row goes over %d cooperating CTAs "
			      "(segments of %lld), their partials exchanged through the workspace "
			      "at an atomic counter: %lld CTAs, all resident (%d an SM); %s",
			      c->cluster, why, c->cluster, (long long)seg, (long long)o->ctas,
			      o->ctas_per_sm, vs_knob(alt, sizeof alt, cs, b, K_CLUSTER));
	} else if (c->cluster > 1)
		choice_reason(
		    out,
		    "cluster=%d: each row over %d CTAs of a cluster (segments of %lld), their "
		    "partials combined through distributed shared memory in rank order: %lld "
		    "CTAs; %s",
		    c->cluster, c->cluster, (long long)seg, (long long)o->ctas,
		    vs_knob(alt, sizeof alt, cs, b, K_CLUSTER));
	else if (t->cluster_max <= 1)
		choice_reason(out, "cluster=1: %s has no thread-block clusters", t->arch);
	else if (f->split_ok)
		choice_reason(out,
			      "cluster=1: the kernel can split its rows instead, which measured "
			      "faster than a cluster");
	else if (M >= t->sms && !rkc_kept_row_crowds_sm(f, N, t))
		choice_reason(
		    out,
		    "cluster=1: one CTA a row, as %lld rows fill %d SMs and a row kept on "
		    "chip (%lld bytes) leaves two CTAs an SM (clusters only where either "
		    "fails)",
		    (long long)M, t->sms, (long long)N * f->kept_bytes);
	else
		choice_reason(out, "cluster=1: %s", vs_knob(alt, sizeof alt, cs, b, K_CLUSTER));
}

/* smem, and the rules that set aside configs keeping rows or the column pass. */
static void
why_smem(Choice *out, const Cands *cs, const Cand *b, const Facts *f, const Target *t, int64_t N)
{
	const Config *c = &b->c;
	const Cost *o = &b->cost;
	int64_t seg = cdiv(N, config_segments(c));
	char alt[ALT_LEN];

	if (smem_colsums(f->colsums, c) && c->persistent) {
		Facts tmp;
		choice_reason(
		    out,
		    "smem=1: the %d colsum partial(s) of a thread's %lld columns live in shared "
		    "memory (%lld bytes a CTA), not in registers: %d regs predicted, %d with them "
		    "held; %d CTA(s) an SM; %s",
		    f->colsums, (long long)(c->r_block / config_tpr(c)),
		    (long long)smem_colsum_bytes(f->colsums, c, N), o->regs,
		    o->regs -
			regs_predict(smem_facts(f, c, &tmp), 1, c->r_block / config_tpr(c),
				     c->vec) +
			regs_predict(f, 1, c->r_block / config_tpr(c), c->vec),
		    o->ctas_per_sm, vs_knob(alt, sizeof alt, cs, b, K_SMEM));
	} else if (c->smem && f->colsums && cs->reread.c.num_warps)
		choice_reason(
		    out,
		    "smem=1: the %d byte(s) an element the later passes read again stay in "
		    "shared memory (%lld bytes a CTA) beside the colsum partials, so the row "
		    "comes from HBM once, not %d times: a looped row with sums over rows keeps "
		    "its row on chip where a config can at %d warps an SM (here %d CTA(s) of %d); "
		    "the row read again set aside: %s",
		    f->kept_bytes, (long long)c->m_block * seg * f->kept_bytes, f->passes,
		    COLSUM_WARPS_SM, o->ctas_per_sm, c->num_warps,
		    vs(alt, sizeof alt, b, &cs->reread));
	else if (c->smem)
		choice_reason(
		    out,
		    "smem=1: the %d byte(s) an element the later passes read again stay in "
		    "shared memory (%lld bytes a CTA), so the row comes from HBM once, not "
		    "%d times; %d CTA(s) an SM; %s",
		    f->kept_bytes, (long long)c->m_block * seg * f->kept_bytes, f->passes,
		    o->ctas_per_sm, vs_knob(alt, sizeof alt, cs, b, K_SMEM));
	else if (f->colsums && c->persistent)
		choice_reason(out, "smem=0: %s; %s",
			      c->colpass ? "no colsum partials (the column pass)"
					 : "the colsum partials stay in registers",
			      vs_knob(alt, sizeof alt, cs, b, K_SMEM));
	else if (!f->kept_bytes)
		choice_reason(out, "smem=0: no pass reads an [M,N] input again");
	else if (c->persistent)
		choice_reason(out, "smem=0: the row is held in registers; %s",
			      vs_knob(alt, sizeof alt, cs, b, K_SMEM));
	else
		choice_reason(out, "smem=0: %s", vs_knob(alt, sizeof alt, cs, b, K_SMEM));
	const Cand *cr = &cs->aside[ASIDE_COLPASS_ROWS];
	if (cr->c.num_warps)
		choice_reason(
		    out,
		    "take_colpass_rows set aside every config without the column pass (the "
		    "model charges its reads at the rows' rate; on an H200 it ran 0.48-0.98x "
		    "the time of the bands at 10 points); %s",
		    vs(alt, sizeof alt, b, cr));
	const Cand *lc = &cs->aside[ASIDE_LONE_CLUSTERS];
	if (lc->c.num_warps && rkc_better(lc, b))
		choice_reason(
		    out,
		    "kept rows over clusters set aside (drop_lone_clusters): over a cluster "
		    "of %d at one CTA an SM, whole clusters fill %lld of %d SMs, and each "
		    "alternates between filling its segment from HBM and the passes over it "
		    "in shared memory, which the model does not charge: %s",
		    lc->c.cluster, (long long)lc->cost.slots, t->sms, vs(alt, sizeof alt, b, lc));
}

/* Where the colsum partials live when not in registers. */
static void
why_partials(Choice *out, const Cands *cs, const Cand *b, const Facts *f, const Target *t,
	     int64_t N)
{
	const Config *c = &b->c;
	const Cost *o = &b->cost;
	char alt[ALT_LEN];

	if (ws_colsums(f->colsums, c, N)) {
		int late = colsum_late(f->colsums, f->colsum_alone, c, N);
		char own[256];
		snprintf(own, sizeof own,
			 "and none needs a row reduction, so the rows' passes leave them out: "
			 "after its rows each CTA sums them in a pass of their own, a chunk at a "
			 "time over its rows in registers, reading %d bytes an element again, and "
			 "writes each slot once",
			 f->colsum_tile_bytes);
		choice_reason(
		    out,
		    "colsum partials: the %d of a thread's %lld columns (%lld a chunk) "
		    "would take %lld bytes of shared memory a CTA, over the %d any "
		    "target gives, %s",
		    f->colsums, (long long)(smem_colsum_cols(c, N) / config_tpr(c)),
		    (long long)(c->r_block / config_tpr(c)),
		    (long long)f->colsums * c->m_block * smem_colsum_cols(c, N) * 4, MAX_DYN_SMEM,
		    late ? own
			 : "so they stay in the CTA's workspace slots: each row loads and "
			   "stores them through L2");
		if (late && cs->aside[ASIDE_LONE_OWN].c.num_warps)
			choice_reason(
			    out,
			    "own pass: one CTA an SM of %d warps and one row group, so the grid "
			    "writes the fewest slots (%lld MB, written and read once), where its "
			    "rows give every SM two row blocks or more; %s",
			    c->num_warps,
			    (long long)((double)f->colsums * o->ctas * smem_colsum_cols(c, N) * 4 /
					1e6),
			    vs(alt, sizeof alt, b, &cs->aside[ASIDE_LONE_OWN]));
	} else if (smem_colsums(f->colsums, c) && !c->persistent) {
		choice_reason(out,
			      "colsum partials: the %d of a thread's %lld columns (%lld a chunk) "
			      "live in shared memory, %lld bytes a CTA: a streamed row cannot "
			      "carry them round its chunk loop in registers",
			      f->colsums, (long long)(smem_colsum_cols(c, N) / config_tpr(c)),
			      (long long)(c->r_block / config_tpr(c)),
			      (long long)smem_colsum_bytes(f->colsums, c, N));
	}
	if (rkc_lone_colsum(f, c, N, t) && o->ctas_per_sm == 1)
		choice_reason(
		    out,
		    "one CTA an SM of %d warps, not ranked down for occupancy: two CTAs an "
		    "SM would keep %.1f MB of rows read again in flight, over the L2's "
		    "%.1f MB, where one CTA's %.1f MB stay in it",
		    c->num_warps, 2.0 * t->sms * N * f->kept_bytes / 1e6, t->l2_bytes / 1e6,
		    (double)t->sms * N * f->kept_bytes / 1e6);
}

/* grid (with dynamic and ahead): a persistent grid, or a CTA a row block. */
static void
why_grid(Choice *out, const Cands *cs, const Cand *b, const Facts *f, const Target *t, int64_t M,
	 int64_t N)
{
	const Config *c = &b->c;
	const Cost *o = &b->cost;
	char alt[ALT_LEN];

	int64_t blocks = cdiv(M, c->m_block);
	char ahead[16] = "", band[256] = "";
	int64_t row_bytes;
	int fits = config_band_grid(c) ? rkc_band_grid_fits(f, c, M, N, t, &row_bytes) : BAND_NO;
	if (fits == BAND_ROWS && M >= t->sms)
		snprintf(band, sizeof band,
			 ", bands because a later pass reads each row again and no cluster keeps "
			 "it at two CTAs an SM");
	else if (fits == BAND_ROWS)
		snprintf(band, sizeof band,
			 ", bands because a later pass reads each row again and %lld rows at "
			 "once (%.1f MB) pass half the L2 (%.1f MB)",
			 (long long)M, (double)M * row_bytes / 1e6, t->l2_bytes / 2e6);
	if (fits == BAND_PARTIALS)
		snprintf(band, sizeof band,
			 ", bands at %lld row blocks because %s and a whole row's partials (%lld "
			 "bytes) pass a CTA's shared memory (%d), where a band's CTAs keep their "
			 "segments' partials on chip",
			 (long long)blocks,
			 f->colsum_alone ? "the colsums' own pass would read their inputs again"
					 : "a colsum needs a row reduction",
			 (long long)row_bytes, MAX_DYN_SMEM);
	if (c->ahead)
		snprintf(ahead, sizeof ahead, " ahead=%d", c->ahead);
	int pos = colpass_min_pos(f, c, N);
	if (colpass_whole(f->colsum_whole, c))
		choice_reason(
		    out,
		    "grid=%d: SMs x CTAs an SM (%d x %d), at most a CTA %d vector(s) of 4 "
		    "columns (%lld): the column pass makes the kernel, so every CTA takes "
		    "a slice of the columns over every row, not a row block; %s",
		    c->grid, t->sms, o->ctas_per_sm, pos, (long long)cdiv(cdiv(N, 4), pos),
		    vs_knob(alt, sizeof alt, cs, b, K_GRID));
	else if (c->grid > 0)
		choice_reason(
		    out,
		    "grid=%d%s%s: a persistent grid, %d SMs x %d resident CTAs, walks %lld "
		    "row blocks (%.1f a %s)%s%s%s; %s",
		    c->grid, c->dynamic ? " dynamic=1" : "", ahead, t->sms, o->ctas_per_sm,
		    (long long)blocks, (double)blocks * config_segments(c) / o->ctas,
		    config_cluster_grid(c) ? "cluster, each CTA a segment of the row"
		    : config_band_grid(c)  ? "band of cooperating CTAs, each a segment of the row"
					   : "CTA",
		    c->dynamic		  ? ", each CTA's next block from the work counter"
		    : config_band_grid(c) ? ", block ctaid/cluster + i*grid/cluster"
					  : ", block ctaid + i*grid",
		    c->ahead > 1 ? ", the next blocks' loads copied by cp.async into a ring "
				   "of shared memory before this block's reductions"
		    : c->ahead	 ? ", the next block's loads issued before this block's "
				   "reductions"
				 : "",
		    band, vs_knob(alt, sizeof alt, cs, b, K_GRID));
	else if (config_segments(c) > 1)
		choice_reason(out, "grid=0: a CTA per row segment (a persistent grid walks whole "
				   "rows)");
	else if (blocks <= (int64_t)t->sms * o->ctas_per_sm)
		choice_reason(out,
			      "grid=0: %lld row block(s) fit one wave of %d SMs x %d CTAs, so a "
			      "persistent grid would be the same CTAs with a loop",
			      (long long)blocks, t->sms, o->ctas_per_sm);
	else
		choice_reason(out, "grid=0: a CTA per row block; %s",
			      vs_knob(alt, sizeof alt, cs, b, K_GRID));
}

/* colpass=0 under a grid with sums over rows: why the combine and not the column pass. */
static void
why_no_colpass(Choice *out, const Cands *cs, const Cand *b, const Kernel *k, const Facts *f,
	       const Target *t, int64_t M, int64_t N)
{
	const Config *c = &b->c;
	char alt[ALT_LEN];

	if (rkc_colpass_offered(f, c, M, N, t))
		choice_reason(out, "colpass=0: the partials' combine, not the column pass; %s",
			      vs_knob(alt, sizeof alt, cs, b, K_COLPASS));
	else if (f->colsum_alone && !colpass_wide(c, N))
		choice_reason(out,
			      "colpass=0: rows of %lld columns at vec=%d: a column pass "
			      "would read them element by element",
			      (long long)N, c->vec);
	else if (f->colsum_alone && colsum_late(f->colsums, f->colsum_alone, c, N)) {
		Config g;
		Cost own, cp;
		int settles = rkc_colpass_settles(k, f, c, M, N, t, &g, &own, &cp);
		if (settles < 0)
			choice_reason(out, "colpass=0: the column pass on these rows "
					   "cannot be emitted or does not fit the target");
		else if (!settles) /* 1: settled */
			choice_reason(out,
				      "colpass=0: the own pass and a column pass both read "
				      "the inputs (%.1f MB) again; the own pass's slots (%.1f "
				      "MB) are under 1/%d of them, and the model puts the own "
				      "pass under the column pass: %.1f us, not %.1f "
				      "(settle_colpass)",
				      (double)M * N * f->colsum_tile_bytes / 1e6,
				      rkc_own_slot_bytes(f, c, N) / 1e6, COLPASS_SLOTS, own.us,
				      cp.us);
	} else if (f->colsum_alone)
		choice_reason(out,
			      "colpass=0: the inputs the colsums read (%.1f MB) are over "
			      "3/4 of the L2 (%.1f MB), so a column pass would read them "
			      "from HBM again",
			      (double)M * N * f->colsum_tile_bytes / 1e6, t->l2_bytes / 1e6);
	else
		choice_reason(out,
			      "colpass=0: a colsum needs a row reduction, and the column "
			      "pass then takes the rows' values from looped rows of one CTA "
			      "that fill the SMs, read 4 columns an access, and whose partials "
			      "would pass shared memory: %s",
			      rkc_colpass_rows_miss(alt, sizeof alt, f, c, M, N, t));
}

/* The sums over rows: one slot, the column pass, or the slots and their combine. */
static void
why_colsums(Choice *out, const Cands *cs, const Cand *b, const Kernel *k, const Facts *f,
	    const Target *t, int64_t M, int64_t N)
{
	const Config *c = &b->c;
	const Cost *o = &b->cost;
	char alt[ALT_LEN];

	if (k->plan->ncolsum && colsum_one_slot(f->colsums, f->colsum_alone, c, N))
		choice_reason(
		    out,
		    "sums over rows: one %s walks every row, so each CTA's partials are "
		    "the sums of its columns: it stores them to the outputs itself (the one "
		    "slot: no slots and no wait for them%s)",
		    config_cluster_grid(c) ? "cluster"
		    : config_band_grid(c)  ? "band of cooperating CTAs"
					   : "CTA",
		    c->coop ? "; the launch is cooperative for the row's exchanges"
			    : ", not a cooperative launch");
	else if (colsum_column(f->colsums, c)) {
		ColpassLanes ln;
		int64_t nj = colpass_slice(N, o->ctas, f->colpass_arrays.isz);
		colpass_lanes_of(f, c, M, N, o->ctas, colsum_ctas(c, o, t), &ln);
		char why[320];
		if (colpass_whole(f->colsum_whole, c) && !f->colsum_only)
			snprintf(
			    why, sizeof why,
			    "no colsum needs a row reduction and nothing reduces a row, so the "
			    "column pass makes the whole kernel: "
			    "the rows read nothing, and it reads the inputs (%.1f MB) once and "
			    "writes the outputs",
			    (double)M * N * f->tile_in_bytes / 1e6);
		else if (f->colsum_only)
			snprintf(why, sizeof why,
				 "no colsum needs a row reduction and the kernel stores nothing "
				 "else, so its rows read nothing and "
				 "the column pass reads the inputs (%.1f MB) once",
				 (double)M * N * f->colsum_tile_bytes / 1e6);
		else if (!f->colsum_alone)
			snprintf(why, sizeof why,
				 "a colsum needs a row reduction and a whole row's partials "
				 "(%lld bytes) pass shared memory (%d): the rows write %d "
				 "value(s) a row and the CTAs wait for the grid (cooperative)",
				 (long long)f->colsums * smem_colsum_cols(c, N) * 4, MAX_DYN_SMEM,
				 k->plan->nrowval);
		else
			snprintf(why, sizeof why,
				 "no colsum needs a row reduction and their inputs (%.1f MB) fit "
				 "3/4 of the L2 (%.1f MB)",
				 (double)M * N * f->colsum_tile_bytes / 1e6, t->l2_bytes / 1e6);
		int whole = colpass_whole(f->colsum_whole, c) && !f->colsum_only;
		choice_reason(
		    out,
		    "colpass=1: %s: %s CTA sums %lld "
		    "vectors of 4 columns over the %lld rows from them (%lld threads a row, "
		    "%lld bytes of it a turn, %lld turn(s), %lld rows a trip) and stores them, no "
		    "partials or slots: %.1f us of %s; %s",
		    why, whole ? "each" : "after its rows each", (long long)nj, (long long)M,
		    (long long)ln.lanes,
		    (long long)((ln.lanes < nj ? ln.lanes : nj) * 4 * f->colpass_arrays.isz),
		    (long long)ln.turns, (long long)ln.u, o->combine_us,
		    colpass_whole(f->colsum_whole, c)
			? "round trips, under the stream in the model"
			: "the pass modelled after the rows, its bytes from HBM streamed in its "
			  "round trips",
		    vs_knob(alt, sizeof alt, cs, b, K_COLPASS));
	} else if (k->plan->ncolsum && c->grid > 0) {
		ColsumLayout cl;
		ColsumSlices sl;
		colsum_layout(c, f->colsums, N, &cl);
		colsum_slices(&cl, c, f->colsums, o->ctas, &sl);
		char pre[96] = "";
		if (cl.per_cta < c->m_block)
			snprintf(pre, sizeof pre,
				 " add theirs in shared memory (%lld bytes, the pre-sum), then",
				 (long long)smem_presum_bytes(f->colsums, c, N));
		choice_reason(
		    out,
		    "sums over rows: %lld %s x %d row group(s)%s %s %lld partial rows of "
		    "%lld bytes a colsum%s, count in and wait for each other (a cooperative "
		    "launch), then each CTA sums a slice of %lld vectors of 4 columns over all "
		    "%lld, %lld threads to a row's %lld vectors, in a fixed order: %.1f us of "
		    "tail modelled",
		    (long long)o->ctas / config_segments(c),
		    config_cluster_grid(c) ? "clusters"
		    : config_band_grid(c)  ? "bands"
					   : "CTAs",
		    c->m_block, pre,
		    ws_colsums(f->colsums, c, N) && !colsum_late(f->colsums, f->colsum_alone, c, N)
			? "keep"
			: "write",
		    (long long)sl.rows, (long long)cl.row_bytes,
		    config_band_grid(c) ? " (each CTA its segment's columns)" : "",
		    (long long)sl.vectors, (long long)sl.rows, (long long)sl.lanes,
		    (long long)sl.lanes, o->combine_us);
		why_no_colpass(out, cs, b, k, f, t, M, N);
	}
}

/* Occupancy and the predicted registers. */
static void
why_regs(Choice *out, const Cand *b, const Facts *f, const Target *t, int64_t M, int64_t N)
{
	const Config *c = &b->c;
	const Cost *o = &b->cost;

	int spare, held = rkc_occupancy_ctas(f, o, c, t, M, N, &spare);
	int want = N <= SHORT_ROW ? MIN_WARPS_SM_SHORT : MIN_WARPS_SM;
	if (held > spare && spare * c->num_warps < want)
		choice_reason(out,
			      "occupancy: %d CTAs an SM (%d warps), as a cooperative launch holds "
			      "every CTA and min_ctas binds ptxas to them, not the %d (%d warps, "
			      "under the %d the occupancy rule asks) that fit at %d regs plus the "
			      "eighth kept for the model's error",
			      held, held * c->num_warps, spare, spare * c->num_warps, want,
			      o->regs);
	int64_t words = o->live_bytes / 4 - o->edge_regs - o->remote_regs;
	int base = REG_BASE + (c->persistent ? 0 : REG_LOOP);
	const char *what = c->persistent ? "base" : "base and loop state";
	char edge[256] = "";
	if (o->edge_regs)
		snprintf(edge, sizeof edge, " + %d for the head and tail (rows start misaligned)",
			 o->edge_regs);
	if (o->remote_regs)
		snprintf(edge + strlen(edge), sizeof edge - strlen(edge),
			 " + %d for the remote addresses of the cluster's %d CTAs (held through "
			 "the rows)",
			 o->remote_regs, c->cluster);
	if (o->combine_regs && o->combine_regs == o->regs &&
	    o->regs > base + f->nptrs + f->row_regs + words + o->edge_regs + o->remote_regs)
		snprintf(edge + strlen(edge), sizeof edge - strlen(edge),
			 "; the rows' count, under the %d the combine after them takes",
			 o->combine_regs);
	if (colpass_whole(f->colsum_whole, c)) {
		ColpassLanes ln;
		colpass_lanes_of(f, c, M, N, c->grid, c->min_ctas, &ln);
		choice_reason(out,
			      "predicted %d regs/thread = %d base + %lld rows a round trip x %d "
			      "words (%s) + %d sums (4 a colsum): the column pass's, the rows make "
			      "nothing",
			      o->regs, COLPASS_BASE_REGS, (long long)ln.u, colpass_words(f, c, N),
			      colpass_split(f->colpass_stores, c, N)
				  ? "a row's loads of its 4 columns a register an element, its [M] "
				    "values and addresses, as a whole trip's loads go out at once"
				  : "a row's loads of its 4 columns",
			      4 * f->colsums);
	} else if (f->row_regs + words >= f->row_peak)
		choice_reason(out,
			      "predicted %d regs/thread = %d %s + %d addresses + %d row values + "
			      "%lld words (%s)%s",
			      o->regs, base, what, f->nptrs, f->row_regs, (long long)words,
			      c->persistent ? "held tiles x elements a thread"
					    : "chunk of the widest pass + partials",
			      edge);
	else
		choice_reason(out,
			      "predicted %d regs/thread = %d %s + %d addresses + %d row values in "
			      "the [M] epilogue, where the %lld words of tiles are dead",
			      o->regs, base, what, f->nptrs, f->row_peak, (long long)words);
}

/* The modelled time and the terms that bound it. */
static void
why_time(Choice *out, const Cand *b, const Facts *f, const Target *t, int64_t M, int64_t N)
{
	const Config *c = &b->c;
	const Cost *o = &b->cost;

	choice_reason(out,
		      "modelled %.1f us: %.1f MB from HBM at %.0f GB/s (%.0f%% of %.0f), %.1f MB "
		      "from L2, CTA latency %.2f us",
		      o->us, o->hbm_bytes / 1e6, o->bw_gbps, 100 * o->bw_gbps / t->hbm_gbps,
		      t->hbm_gbps, o->l2_bytes / 1e6, o->cta_us);
	if (o->sector > 1)
		choice_reason(
		    out,
		    "the [M,N] bytes count %.2f times: a warp access covers %d bytes of a "
		    "row (%d thread(s) x %d elements x %d bytes)%s",
		    o->sector, o->span, config_tpr(c) < 32 ? config_tpr(c) : 32, c->vec,
		    f->load_isz > 0 ? f->load_isz : 4,
		    o->span < 32 ? ", under a 32-byte sector: the rest of each sector moves "
				   "again"
				 : ", one sector a request to L2, as the row fills its "
				   "own lines");
	if (o->dispatch_bound)
		choice_reason(
		    out,
		    "memory time %.2f us = the CTAs' start (the hardware starts %lld CTAs "
		    "%.2f ns apart: %.2f us) + the last one's latency %.2f us, over the %.2f "
		    "us HBM takes",
		    o->mem_us, (long long)o->ctas, t->dispatch_ns, o->dispatch_us, o->cta_us,
		    o->stream_us);
	if (o->issue_bound)
		choice_reason(out,
			      "memory time %.2f us = the issue term of a short row: %lld row "
			      "block(s) of %d warp(s), each thread %lld element slot(s) (%lld "
			      "columns) at %d instructions + 1 and %d a block (fitted), %d warp "
			      "instructions a cycle at %.2f GHz on %d SMs; over the %.2f us HBM "
			      "takes",
			      o->mem_us, (long long)(cdiv(M, c->m_block) * config_segments(c)),
			      c->num_warps, (long long)issue_slots(c, N), (long long)N,
			      t->fp8_cvt ? f->issue_ops : f->ops, BLOCK_OPS, t->sub_partitions,
			      t->issue_ghz, t->sms, o->stream_us);
	if (f->folded)
		choice_reason(out,
			      "the loads fold into the reduction as they arrive (nothing holds the "
			      "row): a DRAM round trip every %d of a thread's %lld vector(s) a %s, "
			      "%.2f us of the CTA's latency",
			      FOLD_VECS, (long long)cdiv(c->r_block / config_tpr(c), c->vec),
			      c->persistent ? "row" : "chunk", o->dram_ns / 1e3);
}

/* The reasons for pick b among the candidates cs, a knob at a time, in the order rkc explain
 * prints them. */
void
rkc_explain(Choice *out, const Cands *cs, const Cand *b, const Kernel *k, const Facts *f, int64_t M,
	    int64_t N, const Target *t, int64_t mcap)
{
	why_vec(out, b, k, f, N);
	why_mode(out, cs, b, f, t, N);
	why_warps(out, cs, b, f, t, N, mcap);
	why_cut(out, cs, b, k, f, t, M, N);
	why_smem(out, cs, b, f, t, N);
	why_partials(out, cs, b, f, t, N);
	why_grid(out, cs, b, f, t, M, N);
	why_colsums(out, cs, b, k, f, t, M, N);
	why_regs(out, b, f, t, M, N);
	why_time(out, b, f, t, M, N);
}

/* The column pass's lanes where it reads element by element, as codegen takes them for the
 * settled config (colpass_lanes_run): the lanes taken and the nearest set aside, each at its
 * modelled time an SM (colpass_misaligned_cost, heuristics.h). Called after rkc_settle's steps,
 * which may change the grid and CTAs an SM the ranking had. */
void
rkc_explain_lanes(Choice *out, const Kernel *k, const Facts *f, int64_t M, int64_t N,
		  const Target *t)
{
	const Config *c = &out->cfg;
	if (!colsum_column(f->colsums, c) || colpass_wide(c, N))
		return;
	ColpassLanes ln;
	ColpassTried tried;
	colpass_lanes_run(k, f, c, M, N, t, &ln, &tried);
	/* those set aside, the nearest first (the fewer lanes first at a tie) */
	ColpassLanes v[COLPASS_TRIED];
	int n = 0;
	for (int i = 0; i < tried.n; i++) {
		if (tried.v[i].lanes == ln.lanes)
			continue;
		int j = n++;
		for (; j > 0 && v[j - 1].ns > tried.v[i].ns; j--)
			v[j] = v[j - 1];
		v[j] = tried.v[i];
	}
	char aside[160] = "";
	for (int i = 0; i < n && i < 4; i++) {
		size_t m = strlen(aside);
		snprintf(aside + m, sizeof aside - m, "%s%lld lanes %.1f us", i ? ", " : "",
			 (long long)v[i].lanes, v[i].ns / 1e3);
	}
	choice_reason(out,
		      "colpass lanes (element by element: not 4 columns an access), the least "
		      "modelled time an SM: %lld lanes %.1f us (bytes %.1f, accesses %.1f: the "
		      "longer + 1/4 of the shorter; %lld turns and %lld tree levels, 1 us each); "
		      "set aside, the nearest %d of %d: %s",
		      (long long)ln.lanes, ln.ns / 1e3, ln.bytes_ns / 1e3, ln.access_ns / 1e3,
		      (long long)ln.turns, (long long)ln.levels, n < 4 ? n : 4, n,
		      n ? aside : "none");
}
