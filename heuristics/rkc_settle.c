/* Policy rkc's settle steps: the knobs the ranking leaves alone, set on its pick. */
#include "heuristics/rkc.h"

/* L2 eviction hints (Config.evict) help where looped passes read the row again, where few long
 * rows stream, and on a plain one-pass reduction of a single input at any row count
 * (sum 1.12-1.14x, long_sum 1.05-1.23x), and cost a little on other single-pass loops over many
 * rows (the A/Bs on the H100: docs/heuristics.md, bench/results/h100-2026-11-22b.md and
 * h100-2026-11-23-sched.md). So: on for re-reading passes, for fewer rows than FEW_ROWS_PER_SM
 * times the SMs and for a lone input stream, off otherwise. */
#define FEW_ROWS_PER_SM 2

/* Except where the rows in flight that later passes read again are over REREAD_L2 times the L2
 * (the cost model's reread_hit under 1 / (2 REREAD_L2)): evict_last pins lines of rows that cannot
 * all stay, and the [N] inputs and the rows' later chunks go to HBM instead. Measured on an H200
 * at the 32 sm_90 looped picks whose rows in flight are over half the L2
 * (bench/results/h200-2026-11-28-evict.md): with the L2 keeping 10% of the re-read or less, 15
 * points, the hints off ran 0.965x the time by geomean (layer_norm bf16 37x4194304 0.790x), 14
 * of 15 faster or within 1%; at 14-20%, 6 points, 1.003x; at 39-94%, 11 points, 1.035x
 * (dynamic_quant fp32 37x1000003 1.085x with the hints off). */
#define REREAD_L2 4

/* Whether a pick that keeps rows (smem=1) stashes the apply pass's values (stash=1): where that
 * takes no more shared memory an element than the kept rows it replaces, so the CTAs an SM stay
 * as the model has them and the apply pass only sheds instructions. Measured on an H200
 * (bench/results/h200-2026-11-28-stash.md): gated_rmsnorm, whose stashed value takes the 4 bytes
 * of the two bf16 rows it replaces, 0.958x the time at bf16 2560x131072 and 0.965x at fp32
 * 2048x152064 (4 of 8 bytes); fused_linear_jsd, whose two stashed values add 8 bytes to 4, runs
 * 1.14-2.03x slower at 10 configs of three shapes and both dtypes, as the CTAs an SM fall by
 * 2-3x, and 0.99x at one that kept its CTAs. */
static void
settle_stash(Choice *out, const Facts *f)
{
	Config *c = &out->cfg;
	if (!c->smem || c->persistent || !f->stashes)
		return;
	if (f->stash_kept_bytes > f->kept_bytes) {
		choice_reason(
		    out,
		    "stash=0: the apply pass recomputes its %d value(s) from the kept "
		    "rows; stashing them would keep %d bytes an element on chip where the "
		    "rows take %d, fewer CTAs an SM",
		    f->stashes, f->stash_kept_bytes, f->kept_bytes);
		return;
	}
	c->stash = 1;
	choice_reason(out,
		      "stash=1: the last reduction pass keeps %d value(s) the apply pass needs in "
		      "shared memory (%d bytes an element, where the rows kept without it take "
		      "%d), and the apply pass reads them back, so it runs %d instruction(s) an "
		      "element fewer, %d of them a transcendental or a division",
		      f->stashes, f->stash_kept_bytes, f->kept_bytes, f->stash_spared_ops,
		      f->stash_spared);
}

/* Whether a persistent pick makes its row's tail a vector at a time (steps=1): where the model
 * plans at most STEPS_MAX_CTAS CTAs an SM for it, the tail's loads counted a vector at a time let
 * more in, and the grid has the CTAs to fill them twice over. A few CTAs an SM wait for their
 * loads at every exchange with little to overlap them (the rule of few_warps); the stepped tail
 * issues its loads a vector at a time, each after the vector before is stored, so where the CTAs
 * an SM do not rise, or were many already, it only waits longer. Measured on an H200
 * (bench/results/h200-2026-11-30-tail-steps.md), stepped with the CTAs an SM rkc_min_ctas binds
 * against the pick: layer_norm fp32 2048x10240 (1 CTA an SM to 2) 0.76x the time, welford fp32
 * 8192x14336 (1 to 2) 0.87x, layer_norm fp32 4096x3584 and 2048x4096 (2 to 4) 0.92x and 0.94x,
 * bf16 2048x10240 (2 to 3) 0.90x; the 10 points a bound of 3 adds to one of 2, 0.98x by geomean
 * (0.92-1.02x); from 4 CTAs an SM fused_add_layernorm ran 1.05-1.08x (welford bf16 from 5
 * 0.98x), and where the model's CTAs an SM stay, 1.04-1.15x. */
enum { STEPS_MAX_CTAS = 3 };

static void
settle_steps(Choice *out, const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t)
{
	Config *c = &out->cfg, g = *c;
	if (!c->persistent || k->plan->tail < 0 || c->grid > 0)
		return;
	Cost o0, o1;
	g.min_ctas = 1;
	g.steps = 0;
	cost_model(f, &g, M, N, t, &o0);
	if (o0.ctas_per_sm > STEPS_MAX_CTAS || o0.ctas <= (int64_t)o0.ctas_per_sm * t->sms)
		return;
	g.steps = 1;
	cost_model(f, &g, M, N, t, &o1);
	if (o1.ctas_per_sm <= o0.ctas_per_sm) {
		choice_reason(
		    out,
		    "steps=0: %d CTA(s) an SM at %d regs; with the tail's %d load(s) a "
		    "vector at a time %d regs, still %d, so the tail keeps every load ahead",
		    o0.ctas_per_sm, o0.regs, k->plan->tail_loads, o1.regs, o1.ctas_per_sm);
		return;
	}
	if (o1.ctas < 2LL * o1.ctas_per_sm * t->sms) {
		choice_reason(
		    out,
		    "steps=0: %d CTA(s) an SM at %d regs; with the tail's %d load(s) a "
		    "vector at a time %d regs and %d CTAs an SM, but %lld CTAs do not fill "
		    "them twice over, so the tail keeps every load ahead",
		    o0.ctas_per_sm, o0.regs, k->plan->tail_loads, o1.regs, o1.ctas_per_sm,
		    (long long)o1.ctas);
		return;
	}
	c->steps = 1;
	choice_reason(
	    out,
	    "steps=1: %d CTA(s) an SM at %d regs; the tail after the last exchange made a "
	    "vector at a time (its %d load(s) a vector's worth) needs %d, so %d CTAs an "
	    "SM overlap each other's exchanges (%lld CTAs over %d SMs)",
	    o0.ctas_per_sm, o0.regs, k->plan->tail_loads, o1.regs, o1.ctas_per_sm,
	    (long long)o1.ctas, t->sms);
}

/* The chunks a CTA's first pass streams over a looped row: its segment's, and under a persistent
 * grid those of every row block it walks. */
static int64_t
first_pass_chunks(const Config *c, int64_t M, int64_t N)
{
	int64_t chunks = cdiv(cdiv(N, config_segments(c)), c->r_block);
	return c->grid > 0 ? chunks * cdiv(cdiv(M, c->m_block), c->grid) : chunks;
}

/* A looped row kept on chip by the register fill over at most KEPT_FEW_CHUNKS chunks a CTA: half
 * the ranking's r_block, where the half still gives each thread a vector, can be emitted and
 * fits more CTAs an SM by the model's registers (or, at the same CTAs an SM, where a first pass
 * of FILL_MATH_OPS instructions an element or more streams under FILL_MATH_CHUNKS chunks and the
 * half reaches them, so that settle_fill takes cp.async: fused_linear_jsd fp32 at 2 chunks,
 * 0.949-0.955x the time on an H200), and the launch has more CTAs than SMs; not where
 * the kept row reads back (fused_add_rmsnorm at 300x180000, f32 and fp16, ran 1.07x the time). Not
 * in the batch-invariant mode: r_block fixes the order there, and the rule was not measured in
 * it. Before min_ctas and the fill, which follow the registers and the chunks. */
static void
settle_kept_chunk(Choice *out, const Kernel *k, const Facts *f, int64_t M, int64_t N,
		  const Target *t, int mode)
{
	Config *c = &out->cfg, g = *c;
	if (mode != SETTLE_NORMAL || c->smem != 1 || c->persistent || c->grid > 0 || c->split > 1 ||
	    rkc_kept_reads_back(f))
		return;
	int64_t chunks = first_pass_chunks(c, M, N);
	g.r_block = c->r_block / 2;
	if (chunks > KEPT_FEW_CHUNKS || g.r_block < (int64_t)config_tpr(c) * c->vec ||
	    config_check_emit(k, f->dtype, M, N, &g, NULL) ||
	    config_check_target(k, f->dtype, N, &g, t, NULL))
		return;
	Cost o;
	cost_model(f, &g, M, N, t, &o);
	int more = o.ctas_per_sm > out->cost.ctas_per_sm;
	/* a heavy first pass under FILL_MATH_CHUNKS chunks reaches them at the half, and with them
	 * settle_fill's cp.async fill */
	Config a = g;
	a.smem = 2;
	int64_t half = first_pass_chunks(&g, M, N);
	int fill = !more && o.ctas_per_sm == out->cost.ctas_per_sm &&
		   f->pass_ops[0] >= FILL_MATH_OPS && chunks < FILL_MATH_CHUNKS &&
		   half >= FILL_MATH_CHUNKS && !config_check_emit(k, f->dtype, M, N, &a, NULL) &&
		   !config_check_target(k, f->dtype, N, &a, t, NULL);
	if ((!more && !fill) || out->cost.ctas <= t->sms)
		return;
	if (more)
		choice_reason(
		    out,
		    "r_block=%lld, half the ranking's %lld: the row is kept on chip by "
		    "the register fill over %lld chunk(s) a CTA (%d or fewer), whose "
		    "loads wait in registers; half the chunk takes %d regs, not %d, so %d "
		    "CTAs an SM, not %d, overlap the fill (the model has no term for it)",
		    (long long)g.r_block, (long long)c->r_block, (long long)chunks, KEPT_FEW_CHUNKS,
		    o.regs, out->cost.regs, o.ctas_per_sm, out->cost.ctas_per_sm);
	else
		choice_reason(
		    out,
		    "r_block=%lld, half the ranking's %lld: the first pass spends %d "
		    "instructions an element (%d or more) over %lld chunk(s) a CTA, under "
		    "%d; the half streams %lld, which the cp.async fill keeps in flight "
		    "through that math (the model has no term for it)",
		    (long long)g.r_block, (long long)c->r_block, f->pass_ops[0], FILL_MATH_OPS,
		    (long long)chunks, FILL_MATH_CHUNKS, (long long)half);
	*c = g;
	out->cost = o;
}

/* A pick whose colsums take their own pass (colsum_late: its partials pass shared memory) reads
 * their inputs from HBM again, writes its slots (grid x m_block partial rows of N floats a
 * colsum) and combines them after a wait for the grid; the column pass (colpass=1, same rows)
 * reads the inputs again without the slots. The pick takes it (colpass_settles) where the
 * slots' bytes are at least 1/COLPASS_SLOTS of the inputs' (few rows against wide partial rows),
 * or the model puts the column pass on the pick's rows under the own pass. Measured on an H200
 * (bench/results/h200-2026-12-01-colpass.md), forced on the same rows at 11 own-pass picks: at
 * the 4 whose slots were a quarter of the inputs or more, 0.64-0.87x the time (the held-out
 * colonly bf16 1024x131072 201 -> 128 µs); at the 7 under, 0.99-1.12x. The model's half
 * counts rows that read less than the colsums do (masked_pool: the rows read the mask alone),
 * where the slots are a larger share of what the own pass moves; at 13 points timed both ways
 * on the same rows it puts the column pass on the side measured at 11
 * (bench/results/h200-2026-12-04-colpass-stream.md, docs/heuristics.md). The ranking does not
 * choose it: offered
 * there, the model's picks (other rows a CTA) ran 7 of 16 slower. Not under rkc_as_ranked. */
static void
settle_colpass(Choice *out, const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
	       int mode)
{
	Config *c = &out->cfg, g;
	Cost own, cp;
	if (mode == SETTLE_AS_RANKED || rkc_colpass_settles(k, f, c, M, N, t, &g, &own, &cp) != 1)
		return;
	double slots = rkc_own_slot_bytes(f, c, N), inputs = (double)M * N * f->colsum_tile_bytes;
	char why[160];
	if (COLPASS_SLOTS * slots >= inputs)
		snprintf(why, sizeof why, "the slots are 1/%d of the inputs or more",
			 COLPASS_SLOTS);
	else
		snprintf(why, sizeof why,
			 "the slots are under 1/%d of the inputs, and the model "
			 "puts the column pass under the own pass",
			 COLPASS_SLOTS);
	choice_reason(out,
		      "colpass=1, not the ranking's 0: the colsums' own pass reads their inputs "
		      "(%.1f MB) from HBM again and writes and reads back its slots (%.1f MB); "
		      "on the same rows the column pass reads them again without the slots, each "
		      "CTA a slice of the columns over every row, no wait; %s (the model: %.1f "
		      "us, not %.1f)",
		      inputs / 1e6, slots / 1e6, why, cp.us, own.us);
	*c = g;
	out->cost = cp;
}

/* The whole kernel in the column pass (colpass_whole) at COLPASS_CTAS CTAs an SM of
 * COLPASS_MIN_WARPS warps (colpass_ctas_config), which the ranking does not reach: it sizes the
 * pass's rows a trip to the registers of the CTAs an SM it starts from (one), and so lands on one
 * to three. Two classes take it:
 * - a pass that stores its [M,N] outputs element by element (colpass_split: rows start
 *   misaligned) and sums one colsum, where a thread's round trips there (of the rows a trip that
 *   register cap holds: one for bias_gelu_back) are COLPASS_CTAS_TRIPS or fewer. The model charges
 *   a trip a DRAM round trip, not the element-wise chain's instructions with the CTA's warps in
 *   step, and ranks it behind. Measured on an H200, the config forced against the pick
 *   (bench/results/h200-2026-12-02-colpass-odd.md and h200-2026-12-02-colpass-ctas.md):
 *   bias_gelu_back at 23 points of 1 to 19 trips (3 to 300 rows, odd widths, bf16 and fp32)
 *   0.52-0.88x the time; at 7 points of 24 to 147 trips 1.02-1.42x; tests/codegen/colpass_whole.rk
 *   (two colsums, two stores) 0.80-2.74x at 13 points. The old pick against the new at 19 points
 *   the rule moves, 11 of two kernels never measured before: 0.793x the time by geomean, none
 *   slower;
 * - a pass that stores nothing but its colsums (Facts.colsum_only: a bias's gradient), where the
 *   model says it is faster and its registers fit ptxas's cap there: its count (the rows' loads,
 *   their addresses, the sums) is over the seven eighths of the cap the ranking's budget allows,
 *   but the pass has no chain for the model to miss (bias_grad bf16 1024x131072: 60 predicted, 62
 *   by ptxas, no spill; forced, 69.6 us against the pick's 85.0, rkc tune, same file, call 4).
 * Not in the batch-invariant mode (the rows a trip follow M). After min_ctas, which this sets. */
enum { COLPASS_CTAS = 4, COLPASS_CTAS_TRIPS = 20 };
static void
settle_colpass_ctas(Choice *out, const Kernel *k, const Facts *f, int64_t M, int64_t N,
		    const Target *t, int mode)
{
	Config *c = &out->cfg, g = *c;
	int split = colpass_split(f->colpass_stores, c, N);
	if (mode != SETTLE_NORMAL || !colpass_whole(f->colsum_whole, c) ||
	    (split ? f->colsums != 1 : !f->colsum_only) ||
	    (c->num_warps == COLPASS_MIN_WARPS && c->min_ctas == COLPASS_CTAS) ||
	    colpass_ctas_config(&g, COLPASS_CTAS, t->sms, N) ||
	    config_check_emit(k, f->dtype, M, N, &g, NULL) ||
	    config_check_target(k, f->dtype, N, &g, t, NULL))
		return;
	ColpassLanes ln;
	colpass_lanes_of(f, &g, M, N, g.grid, g.min_ctas, &ln);
	Cost o, now;
	cost_model(f, &g, M, N, t, &o);
	cost_model(f, c, M, N, t, &now);
	if (split ? ln.turns * ln.trips > COLPASS_CTAS_TRIPS
		  : o.us >= now.us || o.regs > o.reg_limit)
		return;
	if (split)
		choice_reason(
		    out,
		    "num_warps=%d, min_ctas=%d, grid=%lld, not the ranking's %d warps at %d "
		    "CTA(s) an SM: the column pass makes the whole kernel, stores element by "
		    "element and sums one colsum, and at %d CTAs an SM of %d warps a thread makes "
		    "%lld round trip(s) of %lld row(s), %d or fewer, where the resident warps "
		    "measured faster than more rows a trip (the model has no term for the chain's "
		    "instructions: it says %.1f us, not %.1f)",
		    g.num_warps, g.min_ctas, (long long)g.grid, c->num_warps, c->min_ctas,
		    COLPASS_CTAS, COLPASS_MIN_WARPS, (long long)(ln.turns * ln.trips),
		    (long long)ln.u, COLPASS_CTAS_TRIPS, o.us, now.us);
	else
		choice_reason(
		    out,
		    "num_warps=%d, min_ctas=%d, grid=%lld, not the ranking's %d warps at %d "
		    "CTA(s) an SM: the column pass makes the whole kernel and stores only its "
		    "colsums; at %d CTAs an SM of %d warps, %lld row(s) a trip, the model says "
		    "%.1f us, not %.1f, at %d regs, within ptxas's cap of %d though over the "
		    "ranking's budget (%d): the pass has no chain the count could miss",
		    g.num_warps, g.min_ctas, (long long)g.grid, c->num_warps, c->min_ctas,
		    COLPASS_CTAS, COLPASS_MIN_WARPS, (long long)ln.u, o.us, now.us, o.regs,
		    o.reg_limit, o.reg_limit - o.reg_limit / 8);
	*c = g;
	out->cost = o;
}

/* A pick with the next block ahead in registers (ahead=1) for a kernel with sums over rows whose
 * persistent row spends RING_MATH_OPS instructions an element or more takes the ring
 * (ahead=RING_AHEAD) where it can be emitted and keeps the CTAs an SM the model plans. Not under
 * rkc_as_ranked, which shows the ranking's pick. Before min_ctas, which follows the registers. */
static void
settle_ring(Choice *out, const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
	    int mode)
{
	Config *c = &out->cfg, g = *c;
	if (mode == SETTLE_AS_RANKED || c->ahead != 1 || !f->colsums || f->ops < RING_MATH_OPS ||
	    rkc_ring_blocks(c, M) < RING_MIN_BLOCKS)
		return;
	g.ahead = RING_AHEAD;
	if (config_check_emit(k, f->dtype, M, N, &g, NULL) ||
	    config_check_target(k, f->dtype, N, &g, t, NULL))
		return;
	Cost o;
	cost_model(f, &g, M, N, t, &o);
	if (o.ctas_per_sm < out->cost.ctas_per_sm || !rkc_within_budget(&o))
		return;
	choice_reason(out,
		      "ahead=%d, not the ranking's 1: the row spends %d instructions an element "
		      "(%d or more), through which the next block in registers is held; the ring "
		      "holds %d blocks in shared memory (%lld bytes a CTA) at %d regs, not %d, "
		      "and %d CTAs an SM, each walking %lld row blocks (%d or more; the model has "
		      "no term for it)",
		      RING_AHEAD, f->ops, RING_MATH_OPS, RING_AHEAD,
		      (long long)smem_ring_bytes(&g, f->tile_in_bytes), o.regs, out->cost.regs,
		      o.ctas_per_sm, (long long)rkc_ring_blocks(c, M), RING_MIN_BLOCKS);
	*c = g;
	out->cost = o;
}

/* Which fill a pick that keeps rows (smem=1) takes: cp.async from FILL_MIN_CHUNKS chunks a CTA's
 * first pass streams, or from FILL_MATH_CHUNKS where that pass spends FILL_MATH_OPS instructions
 * an element or more, where the validator accepts it (its copies are 4 bytes or more). Under a
 * persistent grid a CTA streams the chunks of every row block it walks. A stash that keeps no
 * row (settle_stash, before) leaves nothing to fill: its PTX under smem=2 only commits and waits
 * on empty cp.async groups. */
static void
settle_fill(Choice *out, const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t)
{
	Config *c = &out->cfg, g = *c;
	if (c->smem != 1 || c->persistent)
		return;
	int64_t chunks = first_pass_chunks(c, M, N);
	g.smem = 2;
	int heavy = f->pass_ops[0] >= FILL_MATH_OPS;
	if (config_stash_rowless(f, c))
		choice_reason(out, "fill: registers (smem=1): the stash keeps no row, so the first "
				   "pass fills nothing (cp.async would have nothing to copy)");
	else if (heavy && chunks < FILL_MATH_CHUNKS)
		choice_reason(out,
			      "fill: registers (smem=1): the first pass streams %lld chunk(s) a "
			      "CTA, under %d, where the cp.async fill measured no faster",
			      (long long)chunks, FILL_MATH_CHUNKS);
	else if (!heavy && chunks < FILL_MIN_CHUNKS)
		choice_reason(out,
			      "fill: registers (smem=1): the first pass streams %lld chunk(s) a "
			      "CTA, under %d, and spends %d instruction(s) an element, under %d, "
			      "where the cp.async fill measured no faster",
			      (long long)chunks, FILL_MIN_CHUNKS, f->pass_ops[0], FILL_MATH_OPS);
	else if (config_check_emit(k, f->dtype, M, N, &g, NULL) ||
		 config_check_target(k, f->dtype, N, &g, t, NULL))
		choice_reason(out,
			      "fill: registers (smem=1): cp.async cannot copy this row's kept "
			      "vectors (%lld chunks a CTA)",
			      (long long)chunks);
	else if (chunks >= FILL_MIN_CHUNKS) {
		c->smem = 2;
		choice_reason(out,
			      "fill: cp.async (smem=2): the first pass streams %lld chunks a CTA "
			      "(%d or more), so %d chunks stay in flight while it reduces, where "
			      "the register fill waits for each chunk's loads",
			      (long long)chunks, FILL_MIN_CHUNKS, FILL_AHEAD);
	} else {
		c->smem = 2;
		choice_reason(out,
			      "fill: cp.async (smem=2): the first pass spends %d instructions an "
			      "element (%d or more) over %lld chunks a CTA (%d or more), so %d "
			      "chunks stay in flight while it reduces, where the register fill's "
			      "next loads wait for that math",
			      f->pass_ops[0], FILL_MATH_OPS, (long long)chunks, FILL_MATH_CHUNKS,
			      FILL_AHEAD);
	}
}

/* A persistent row alone on its SM (one CTA an SM, one row a CTA) at half MIN_WARPS_SM warps, the
 * occupancy rule's floor, takes MIN_WARPS_SM where the model's registers for them fit ptxas's cap:
 * the ranking ranks the two alike (the same bytes, both a lone CTA) and would take the one of
 * fewer registers, but keeps an eighth of the cap free (rkc_within_budget), and a row that fills
 * 8 warps' registers to that edge (204-219 predicted of 224) is 113-122 of 128 at 16, over the
 * eighth. More warps hide more of the row's math and exchanges behind the loads of the others.
 * Measured on an H200 (bench/results/h200-2026-12-05-lone-warps.md, call 1), the 16-warp config
 * forced against the pick at 45 points of 29 kernels (2048-8192 rows of 12288-49152 columns, bf16
 * and fp32): 0.937x the time by geomean, 28 faster by over 2% (gelu_tanh_gated bf16 4096x32768
 * 0.799x, colonly 0.813x, softmax_backward bf16 0.831x), 3 slower by 2.0-4.3% (ce_bias_grad bf16
 * 4096x16384 1.043x); ptxas spilled at none. 32 warps ran 0.964x, 12 slower by up to 1.30x. Not
 * at fewer rows than FEW_ROWS_PER_SM an SM (a row an SM, not measured), from fewer than half the
 * floor, or in the batch-invariant mode. Before the tail's steps and min_ctas, which follow it. */
static void
settle_lone_warps(Choice *out, const Kernel *k, const Facts *f, int64_t M, int64_t N,
		  const Target *t, int mode)
{
	Config *c = &out->cfg, g = *c;
	if (mode != SETTLE_NORMAL || !c->persistent || c->m_block != 1 || c->cluster != 1 ||
	    c->split != 1 || c->colpass || 2 * c->num_warps != MIN_WARPS_SM ||
	    out->cost.ctas_per_sm != 1 || (c->grid && c->grid != t->sms) ||
	    M < (int64_t)FEW_ROWS_PER_SM * t->sms)
		return;
	g.num_warps = MIN_WARPS_SM;
	int64_t step = (int64_t)config_tpr(&g) * g.vec;
	g.r_block = cdiv(N, step) * step;
	Cost o;
	if (config_check_emit(k, f->dtype, M, N, &g, NULL) ||
	    config_check_target(k, f->dtype, N, &g, t, NULL))
		return;
	cost_model(f, &g, M, N, t, &o);
	if (o.regs > o.reg_limit || o.ctas_per_sm != 1)
		return;
	choice_reason(out,
		      "num_warps=%d, not the ranking's %d: a persistent row alone on its SM at "
		      "%d regs; at %d warps the model predicts %d regs, within ptxas's cap of %d "
		      "though over the ranking's budget (%d), and the SM's %d warps measured "
		      "faster than %d (modelled %.1f us, at %d warps %.1f)",
		      g.num_warps, c->num_warps, out->cost.regs, g.num_warps, o.regs, o.reg_limit,
		      o.reg_limit - o.reg_limit / 8, g.num_warps, c->num_warps, o.us, c->num_warps,
		      out->cost.us);
	*c = g;
	out->cost = o;
}

/* The knobs the ranking leaves alone, set on the pick: a lone row's warps, a kept row's r_block at
 * few chunks, the ring of a heavy row, the stash, the tail's steps, min_ctas, evict as the A/B
 * above, and the fill of kept rows; mode: SETTLE_*. */
void
rkc_settle(Choice *out, const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
	   int mode)
{
	Config *c = &out->cfg;
	Cost o;
	settle_lone_warps(out, k, f, M, N, t, mode);
	settle_kept_chunk(out, k, f, M, N, t, mode);
	settle_ring(out, k, f, M, N, t, mode);
	settle_colpass(out, k, f, M, N, t, mode);
	settle_stash(out, f);
	settle_steps(out, k, f, M, N, t);
	int mc = c->min_ctas = rkc_min_ctas(f, c, M, N, t, &o);
	if (c->steps) /* the pick's registers and time as it runs */
		cost_model(f, c, M, N, t, &out->cost);
	int threads = 32 * c->num_warps;
	/* one CTA more would fit the capped count but squeeze the cap too far */
	int held = mc < o.ctas_per_sm && mc < cdiv(o.ctas, t->sms) &&
		   rkc_min_ctas_fits(t, threads, mc + 1, o.capped) &&
		   rkc_over_squeezed(t, threads, mc + 1, o.regs);
	if (mc > 1 && held)
		choice_reason(
		    out,
		    "min_ctas=%d: %d CTAs an SM (the model plans %d at %d regs; %lld CTAs "
		    "over %d SMs), so ptxas caps a thread at %d regs; capped, it needs %d; "
		    "%d CTAs would cap it at %d, over a %dth under the %d predicted",
		    mc, mc, o.ctas_per_sm, o.regs, (long long)o.ctas, t->sms,
		    target_reg_limit(t, threads, mc), o.capped, mc + 1,
		    target_reg_limit(t, threads, mc + 1), SQUEEZE_MAX, o.regs);
	else if (mc > 1)
		choice_reason(
		    out,
		    "min_ctas=%d: %d CTAs an SM (the model plans %d at %d regs; %lld CTAs "
		    "over %d SMs), so ptxas caps a thread at %d regs; capped, it needs %d",
		    mc, mc, o.ctas_per_sm, o.regs, (long long)o.ctas, t->sms,
		    target_reg_limit(t, threads, mc), o.capped);
	else if (held)
		choice_reason(out,
			      "min_ctas=1: at two CTAs an SM ptxas's cap would be %d regs, over a "
			      "%dth under the %d predicted",
			      target_reg_limit(t, threads, 2), SQUEEZE_MAX, o.regs);
	else
		choice_reason(out, "min_ctas=1: %s",
			      o.ctas_per_sm < 2		 ? "one CTA an SM is the plan"
			      : cdiv(o.ctas, t->sms) < 2 ? "the grid is a single wave"
							 : "at two CTAs an SM the capped count "
							   "would not fit ptxas's cap");
	settle_colpass_ctas(out, k, f, M, N, t, mode);
	rkc_explain_lanes(out, k, f, M, N, t);
	int reread = 0;
	for (int p = 1; !c->persistent && c->split == 1 && p < f->passes && p < MAX_PASSES; p++)
		reread |= f->pass_tile_bytes[p] > 0;
	int few = M < (int64_t)FEW_ROWS_PER_SM * t->sms;
	/* a plain one-pass reduction of one [M,N] input (sum, long_sum): the stream is all there is
	 */
	int lone = f->split_ok && f->ntile_loads == 1 && f->nvec_loads == 0;
	/* rows in flight that re-read far more than the L2 keeps: the pinned lines cannot stay */
	int overflow = reread && o.reread_hit < 0.5 / REREAD_L2;
	c->evict = !overflow && (reread || few || lone);
	if (c->evict)
		choice_reason(out, "evict=1: %s",
			      reread ? "later passes read the row again: evict_last until its last "
				       "read keeps it in L2"
			      : few  ? "few rows, long streams: evict_first measured faster"
				    : "a plain reduction of one input stream: evict_first measured "
				      "faster at every row count");
	else if (overflow)
		choice_reason(out,
			      "evict=0: later passes read the row again, but the rows in flight "
			      "(%.0f MB) are over %d times the L2 (%.0f MB), which keeps %.0f%% of "
			      "the re-read: rows pinned by evict_last would push out the rest",
			      o.reread_ws / 1e6, REREAD_L2, t->l2_bytes / 1e6, 100 * o.reread_hit);
	else
		choice_reason(out,
			      "evict=0: each input is read once over %lld rows, where the hints "
			      "measured slower",
			      (long long)M);
	settle_fill(out, k, f, M, N, t);
}
