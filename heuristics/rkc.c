/* Policy rkc: the config with the least modelled time whose predicted registers do not spill. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "heuristics/heuristics.h"

/* Configs within 1% are a tie: prefer no cluster (no exchange between CTAs; then the smaller, then
 * a hardware cluster before a cooperative group of the same size), then persistent (one
 * read), then rows not kept in shared memory, then no split, then no persistent grid (then a
 * static one, then no row ahead: the least machinery, but the row ahead first at the same r_block
 * where the row's math is heavy, AHEAD_MATH_OPS), then, near the CTAs' dispatch bound
 * (DISPATCH_NEAR), fewer CTAs, then fewer chunks (less loop overhead, which the model leaves
 * out), then, for persistent rows a CTA a row block, fewer rows a CTA (better(), "the rows
 * tie"), then the fewest registers (the most headroom for the register model's error). */
#define TIE 0.01
/* A looped chunk past 64 elements a thread only adds registers: the round trips it saves are
 * already hidden by the other resident CTAs. */
#define MAX_CHUNK_PER_THREAD 64
/* The codegen unrolls a persistent thread's elements and refuses more than 512 (codegen/check.c);
 * a streamed reduction tail (long_sum) models few enough registers to get there. */
#define MAX_HELD_PER_THREAD 512
/* Occupancy the byte model does not see: a CTA alone on its SM runs its load, reduction and store
 * phases one after another, and fewer than 16 resident warps an SM leave too few loads and too
 * little math in flight. Either ranks a config at the low end of what these cost on the H100
 * (docs/heuristics.md, "Policy rkc", has the measured table); occupancy is taken at the predicted
 * registers plus the eighth the budget keeps for the register model's error, as ptxas often lands
 * above. One penalty, not two: stacking them would push to the fattest threads, where the register
 * model errs most. */
#define OCCUPANCY 0.25
#define MIN_WARPS_SM 16
/* Rows of at most SHORT_ROW elements (heuristics.h) take twice the warps before the occupancy
 * rule lets a config go: there the fat threads the byte model favours (more bytes in flight a
 * CTA) run their rows' math and stores with too few other CTAs' loads behind them. Measured on the
 * H100 at the 32 golden points it moved (bench/results/h100-2026-11-24-flush.md, section 8): 0.932x
 * the time by geomean, 20 faster by 1-31%, 5 slower by 1.4-5.6%; its 23 batch-invariant picks
 * 0.907x. */
#define MIN_WARPS_SM_SHORT 32
/* On such rows a thread holding more than SHORT_ROW_ELEMS elements of its row runs their math,
 * conversions and stores one after another, and at the occupancy these configs have nothing hides
 * it; the byte model ranks them a few percent ahead (fewer lanes, a shorter reduction). rkc tune
 * at 12 tiny-rows points (bench/results/h100-2026-11-24-flush.md, section 6): the best config at
 * each count of elements a thread, over the best of all, 8 -> 1.00-1.02, 16 -> 1.00-1.10,
 * 24-32 -> 1.03-1.24, 48-56 -> 1.15-1.30. Ranked SHORT_ROW_SERIAL behind, measured at the 33
 * sm_90 golden points it moved (bench/results/h100-2026-11-24-row-ahead.md): 0.933x the time by
 * geomean, 20 faster by 2-37%, 4 slower by 6-11%. A looped short row counts its chunks together:
 * under the issue term (heuristics.h) a looped row of 3 chunks ties a persistent row of 3
 * vectors, and waits a round trip a chunk (measured with the term,
 * bench/results/h200-2026-12-02-issue-term.md). */
#define SHORT_ROW_ELEMS 16
#define SHORT_ROW_SERIAL 0.10
/* A lone CTA on its SM walking a persistent grid with the next block's loads ahead (ahead=1)
 * overlaps those loads with its math, not its stores and barriers. Measured on the H100 against
 * two CTAs an SM without it (layer_norm_backward bf16 at 4096 columns; bench/results/
 * h100-2026-11-24-ahead.md): 0.80-0.98x the time at 512-4096 rows, where the model sees
 * 0.80-0.91x, and 1.054x at 16384 rows, where it sees 0.96x: a row streams about 10% slower
 * than the model has it. Ranking such a config 8% behind keeps the first and drops the last. */
#define OCCUPANCY_AHEAD 0.08
/* The next block ahead holds a second block's values through the whole of this one's math; at 64
 * registers a thread (a CTA of 1024 threads) that does not fit. cross_entropy_backward bf16 at
 * 8192 columns, the one such pick over the scanned shapes: predicted 55 registers, ptxas 64 and
 * 172 bytes of spills, 2.9-3.4x the time of 16 warps with the same grid (bench/results/
 * h100-2026-11-24-flush.md, section 9). So ahead needs a limit over AHEAD_MIN_REGS. */
#define AHEAD_MIN_REGS 64
/* The ring (ahead=RING_AHEAD: the next blocks copied by cp.async into shared memory, Config.ahead)
 * serves the grids of kernels with sums over rows, whose only mode is the grid. The ranking is
 * offered it where the next block in registers (ahead=1) does not fit (ring_offered), and a pick
 * with ahead=1 takes it where its persistent row spends RING_MATH_OPS instructions an element or
 * more (Facts.ops) at the same CTAs an SM (settle_ring): the register ahead holds the next block
 * through that math, which the model does not see. Measured on an H200 against the ahead=1 picks
 * at the same CTAs an SM (bench/results/h200-2026-12-01-ring.md): layer_norm_backward bf16 (19
 * instructions an element) 0.81-0.96x the time at 5 points, rms_norm_backward (14 at bf16, 9 at
 * fp32) 0.98-1.04x at 7; three blocks ahead ran no faster than two. */
#define RING_AHEAD 2
#define RING_MATH_OPS 16
/* Among persistent grids within a tie (TIE), the least machinery, no row ahead, goes first, but
 * where the row spends AHEAD_MATH_OPS instructions an element or more the next block ahead does,
 * between configs of the same r_block: without it a CTA's next loads wait for all of this block's
 * math, which the model does not count. Measured on an H200
 * (bench/results/h200-2026-12-02-sech.md), the tie's pick with no row ahead against the one with
 * it: bias_gelu_back bf16 (25 instructions an element) 0.69-0.87x the time at 4 points, then as a
 * rule 0.850x at 31 points of it and a GELU-erf backward (41); bias_silu_back (15) 0.48-0.97x at 20
 * points, the lightest measured. At 8, rms_norm_backward (14) moved to configs that also padded its
 * rows (r_block 1024 for 768 columns) and ran 1.08-1.42x: the padded lanes are math too, hence the
 * same r_block. */
#define AHEAD_MATH_OPS 15
/* ...and only where a CTA walks RING_MIN_BLOCKS row blocks or more: the ring fills RING_AHEAD
 * blocks before the first and drains them after the last, which few blocks do not repay
 * (layer_norm_backward bf16 8192x1024 at 7.8 blocks a CTA, 1.024x; the norm backward kernels at
 * 32768x128, 3.9 blocks a CTA of 64 rows, 1.03-1.13x; at 15 blocks and more 0.68-1.03x). */
#define RING_MIN_BLOCKS 8
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
/* A grid larger than any target's resident CTAs: the cost model clamps it to what fits. */
#define GRID_PROBE (1 << 20)
/* A persistent grid ranks 5% behind its model: on the H100 the hardware's CTA scheduler already
 * overlaps one CTA's loads with another's reductions. Measured at 14 short-row points (rkc tune,
 * bench/results/h100-2026-11-23-sched.md), the grid variants (static, dynamic, the next row
 * ahead) ran 1.00-1.05x the time of the best config with a CTA a row block, where the model
 * credited them up to 3% better. So the policy takes a grid only where the model sees more than
 * 5%: on the golden suite, persistent fp32 norms whose [N] weights a grid reads once per CTA
 * (not yet timed against grid=0). */
#define GRID_COST 1.05
/* The hardware starts a launch's CTAs dispatch_ns apart (the cost model's dispatch bound); where a
 * config's CTAs take at least DISPATCH_NEAR of its HBM time to start, a tie goes to the fewer
 * CTAs: the HBM time is the model's, and on short rows the model has it long (softmax bf16
 * 1048576x16: 30.7 us modelled, 24.0 measured on an H200, of which the 32768 CTAs' start is
 * 19.7). Measured at the 13 sm_90 picks it moves: 0.922x the time, none slower by over 1%
 * (bench/results/h200-2026-11-28-dispatch-tie.md). Counting a CTA's latency with the start made
 * small launches near too and went to a few huge CTAs there (dynamic_quant bf16 100003x16 at 196
 * CTAs: 1.05-1.07x). */
#define DISPATCH_NEAR 0.5

typedef struct {
	Config c;
	Cost cost;
	double score; /* modelled us, with the occupancy penalties */
	int serial; /* ranked SHORT_ROW_SERIAL behind: the elements a thread of its row (else 0) */
	int heavy;  /* the row's math is heavy (AHEAD_MATH_OPS): ties go to the row ahead */
} Cand;

/* The rules that drop ranked candidates (enumerate), in the order they run: each keeps the best
 * candidate it dropped (valid when its c.num_warps > 0), which explain names and rkc tune times
 * beside the ranking (rkc_set_aside), so that a rule's verdict at a point can be measured. */
enum {
	ASIDE_KEPT_ROWS,
	ASIDE_WS_COLSUMS,
	ASIDE_LONE_OWN,
	ASIDE_STREAMED,
	ASIDE_LONE_CLUSTERS,
	ASIDE_COLPASS_ROWS,
	ASIDE_STREAMED_BANDS,
	NASIDE
};
_Static_assert((int)NASIDE == (int)RKC_ASIDE, "heuristics.h's RKC_ASIDE counts the rules");
static const char *const aside_rules[NASIDE] = {
    "drop_kept_rows",	  "drop_ws_colsums",   "lone_own_colsums",   "drop_streamed_colsums",
    "drop_lone_clusters", "take_colpass_rows", "take_streamed_bands"};

typedef struct {
	Cand *v;
	int n, cap;
	/* the best candidate drop_streamed_colsums set aside for reading its row again (valid when
	 * reread.c.num_warps > 0), for the smem reason */
	Cand reread;
	Cand aside[NASIDE];
} Cands;

static int
dispatch_near(const Cost *o)
{
	return o->dispatch_us >= DISPATCH_NEAR * o->stream_us;
}

/* The ties' structural knobs, in order: 1 when a's is preferred, -1 when b's, 0 when they agree;
 * heavy (Cand.heavy) turns the row ahead's order round between configs of the same r_block. */
static int
structure_tie(const Config *a, const Config *b, int heavy)
{
	if (a->cluster != b->cluster)
		return a->cluster < b->cluster ? 1 : -1;
	if (a->coop != b->coop)
		return a->coop < b->coop ? 1 : -1;
	if (a->persistent != b->persistent)
		return a->persistent ? 1 : -1;
	if (a->smem != b->smem)
		return a->smem < b->smem ? 1 : -1;
	if (a->split != b->split)
		return a->split < b->split ? 1 : -1;
	if ((a->grid > 0) != (b->grid > 0))
		return a->grid == 0 ? 1 : -1;
	if (a->dynamic != b->dynamic)
		return a->dynamic < b->dynamic ? 1 : -1;
	if (a->ahead != b->ahead)
		return (a->ahead < b->ahead) != (heavy && a->r_block == b->r_block) ? 1 : -1;
	return 0;
}

/* Whether a tie between a and b goes to the fewer CTAs (DISPATCH_NEAR). */
static int
dispatch_tie(const Cand *a, const Cand *b)
{
	return a->cost.ctas != b->cost.ctas && (dispatch_near(&a->cost) || dispatch_near(&b->cost));
}

/* Whether the rows tie (better()) ranks configs like c: persistent rows, a CTA a row block. */
static int
rows_tie(const Config *c)
{
	return c->persistent && c->grid == 0;
}

static int
better(const Cand *a, const Cand *b)
{
	double ta = a->score, tb = b->score;
	if (ta < tb * (1 - TIE))
		return 1;
	if (tb < ta * (1 - TIE))
		return 0;
	int st = structure_tie(&a->c, &b->c, a->heavy);
	if (st)
		return st > 0;
	if (dispatch_tie(a, b))
		return a->cost.ctas < b->cost.ctas;
	if (a->c.r_block != b->c.r_block && !a->c.persistent)
		return a->c.r_block > b->c.r_block;
	/* the rows tie: a CTA retires, and its SM takes the next one, only once every row it holds
	 * is stored, so fewer rows a CTA refill the SMs in finer steps (a persistent grid's CTAs
	 * never retire, so not there); the model has no term for it. Measured on an H200 at the
	 * sm_90 picks it moves (bench/results/h200-2026-11-29-rows-tie.md): 75 picks 0.987x the
	 * time by geomean, 15 faster by 2-10%, 2 slower by 2.2-2.6%; the 76 batch-invariant ones
	 * 0.989x, 18 faster, 1 slower (3.4%). */
	if (rows_tie(&a->c) && a->c.m_block != b->c.m_block)
		return a->c.m_block < b->c.m_block;
	if (a->cost.regs != b->cost.regs)
		return a->cost.regs < b->cost.regs;
	return ta < tb;
}

/* The policy keeps an eighth of the register limit free: the model's estimate, not ptxas's
 * count, decides, and a config at the edge spills on a small error. */
static int
within_budget(const Cost *o)
{
	return o->regs <= o->reg_limit - o->reg_limit / 8;
}

/* A looped row with sums over rows holds its SM with this many warps, in one CTA where it must
 * (drop_streamed_colsums, occupancy_penalty). */
#define COLSUM_WARPS_SM 32

/* A lone CTA of one row of COLSUM_WARPS_SM warps, looped with sums over rows, where two CTAs an SM
 * would keep more rows in flight than the L2 holds: the lone CTA's rows read again come from the
 * L2, two CTAs' from HBM, a cliff the model's share of the L2 smooths over. Such a CTA is not
 * ranked down for occupancy. Measured on the H100 (bench/results/h100-2026-11-25-wide-bwd.md,
 * section 9): rms_norm_backward fp32 1024x28672 250.8 -> 163.6 us, 2048x28672 0.68x; without
 * the L2 condition bf16 picks ran 1.01-1.09x slower. */
static int
lone_colsum(const Facts *f, const Config *c, int64_t N, const Target *t)
{
	return f->colsums && !c->persistent && c->m_block == 1 && c->num_warps >= COLSUM_WARPS_SM &&
	       2.0 * t->sms * N * f->kept_bytes > (double)t->l2_bytes;
}

/* The CTAs an SM the occupancy rule counts for c: those that fit at the predicted registers plus
 * the eighth the budget keeps (spare gets that count), except that a cooperative grid (sums over
 * rows, coop rows) has every CTA resident by construction: its min_ctas binds ptxas to the CTAs an
 * SM the grid was sized for, so it counts those. -1 where no more CTAs than SMs run and no
 * persistent grid: each CTA has an SM to itself (occupancy_penalty then counts its own warps).
 * Counting the bound, measured on an H200 at the 9 sm_90 picks it moves (bench/results/
 * h200-2026-11-28-coop-occupancy.md): 0.970x the time by geomean, 3 faster by 5-11%
 * (layer_norm_backward bf16 16384x4096 118.8 -> 105.5 us), none slower by over 1.5%. The bound
 * counted for every config whose min_ctas would bind (95 sm_90 picks moved) ran 1.034x by
 * geomean, 33 slower by over 2% (16-CTA clusters of kept rows up to 1.35x): outside a
 * cooperative launch the eighth stays. */
static int
occupancy_ctas(const Facts *f, const Cost *o, const Config *c, const Target *t, int64_t M,
	       int64_t N, int *spare)
{
	*spare = -1;
	if (o->ctas <= t->sms && c->grid == 0)
		return -1;
	int threads = 32 * c->num_warps;
	int alloc = (o->regs + o->regs / 8 + 7) / 8 * 8;
	int by_regs = t->regs_per_sm / (alloc * threads);
	int by_threads = t->max_threads_sm / threads;
	int k = *spare = by_regs < by_threads ? by_regs : by_threads;
	if (config_cooperative(c, f->colsums, f->colsum_alone, N)) {
		Cost one;
		int bound = rkc_min_ctas(f, c, M, N, t, &one);
		k = k > bound ? k : bound;
	}
	*spare = *spare < o->ctas_per_sm ? *spare : o->ctas_per_sm;
	return k < o->ctas_per_sm ? k : o->ctas_per_sm; /* shared memory and the CTA cap */
}

/* The penalty for warps resident an SM, graded: OCCUPANCY at half of MIN_WARPS_SM or fewer,
 * 0 at MIN_WARPS_SM or more. */
static double
few_warps(int warps)
{
	if (warps >= MIN_WARPS_SM)
		return 0;
	return 2 * warps > MIN_WARPS_SM ? OCCUPANCY * (MIN_WARPS_SM - warps) / (MIN_WARPS_SM / 2)
					: OCCUPANCY;
}

/* The occupancy penalty of a config the rule applies to (occupancy_ctas).
 * Between 8 and 16 warps an SM in two CTAs or more, the penalty grows from 0 at 16 to OCCUPANCY at
 * 8: a row of few fat threads issues fewer instructions a row (each thread's shuffles and merges
 * are a fixed cost) and keeps as many bytes in flight at 12 warps as a row of thin ones at 16-32.
 * Flat, it kept welford bf16 16384x7168 at 16 warps a row (186.6 us) over 4 warps, 3 CTAs an SM
 * (158.6 us). Graded, measured on the H100 at the 19 sm_90 picks it moves and 5 shapes off the
 * suites (bench/results/h100-2026-11-24-tree.md, section 2): 0.920x the time by geomean, 16
 * faster by 2-37%, 6 slower (16-CTA clusters at gated_rmsnorm bf16 1024x201088 1.17x; few rows in
 * the batch-invariant mode, whose layout is chosen at many rows, 1.05-1.74x). Rows of at most
 * SHORT_ROW elements keep the flat rule (graded, layer_norm bf16 1048576x129 ran 1.48x).
 * A looped CTA with an SM to itself (occupancy_ctas -1) is graded by its own warps: its loads in
 * flight are a chunk a thread, and 8 warps streaming one row leave an SM short of bytes in flight.
 * A register-persistent CTA is not: it issues every load of its slice before it reduces. Measured
 * on an H200 old against new at 61 points, 18 suite picks and 43 few-row points off the suites
 * (bench/results/h200-2026-11-30-lone-cta.md): the 32 looped ones 0.854x the time by geomean, 28
 * faster by 2-44% (gated_rmsnorm fp32 16x1000003 110.4 -> 91.2 us), 4 slower by 2-10% (welford
 * fp32 64x1000003 1.10x); the 29 persistent ones 1.160x, 27 slower, up to 2.2x. */
static double
occupancy_penalty(const Facts *f, const Cost *o, const Config *c, const Target *t, int64_t M,
		  int64_t N)
{
	int spare, k = occupancy_ctas(f, o, c, t, M, N, &spare);
	if (k < 0) /* at most a CTA an SM: a looped CTA's own warps are the SM's */
		return c->persistent ? 0 : few_warps(c->num_warps);
	int have = k * c->num_warps;
	if (N <= SHORT_ROW && have < MIN_WARPS_SM_SHORT)
		return OCCUPANCY;
	if (have < MIN_WARPS_SM)
		return k >= 2 ? few_warps(have) : OCCUPANCY;
	if (k >= 2)
		return 0;
	if (lone_colsum(f, c, N, t))
		return 0;
	/* a lone CTA: a persistent grid with the next block's loads ahead overlaps its loads with
	 * its math itself, but not its stores and barriers */
	return c->grid > 0 && c->ahead ? OCCUPANCY_AHEAD : OCCUPANCY;
}

/* The elements a thread runs of a short row, held (persistent) or chunk after chunk (looped),
 * when they are more than SHORT_ROW_ELEMS, else 0. */
static int
serial_elems(const Config *c, int64_t N)
{
	int64_t slots = c->persistent ? c->r_block : cdiv(N, c->r_block) * c->r_block;
	int ept = (int)(slots / config_tpr(c));
	return N <= SHORT_ROW && ept > SHORT_ROW_ELEMS ? ept : 0;
}

/* Whether x's launch is cooperative and cannot hold every CTA at once (min_ctas binds ptxas to
 * it): the modelled CTAs (the grid clamped to what fits) or the grid itself over the slots. */
static int
over_slots(const Cand *x, const Facts *f, const Target *t, int64_t M, int64_t N)
{
	int64_t slots = cost_slots(&x->c, t, x->cost.ctas_per_sm, M, NULL);
	return config_cooperative(&x->c, f->colsums, f->colsum_alone, N) &&
	       (x->cost.ctas > slots || x->c.grid > slots);
}

/* x's ranking score from its cost (x->c and x->cost set): the modelled time with the occupancy
 * penalties, GRID_COST and SHORT_ROW_SERIAL. */
static void
rank_score(Cand *x, const Facts *f, const Target *t, int64_t M, int64_t N)
{
	const Config *c = &x->c;
	x->score = x->cost.us * (1 + occupancy_penalty(f, &x->cost, c, t, M, N)) *
		   (c->grid > 0 ? GRID_COST : 1);
	x->serial = serial_elems(c, N);
	x->heavy = f->ops >= AHEAD_MATH_OPS;
	if (x->serial)
		x->score *= 1 + SHORT_ROW_SERIAL;
}

static void
add(Cands *cs, const Kernel *k, const Facts *f, const Config *c, int64_t M, int64_t N,
    const Target *t)
{
	/* only what codegen can emit and the target run */
	if (config_check_emit(k, f->dtype, M, N, c, NULL) ||
	    config_check_target(k, f->dtype, N, c, t, NULL))
		return;
	Cand x = {*c, {0}, 0, 0, 0};
	cost_model(f, c, M, N, t, &x.cost);
	if (!within_budget(&x.cost) || (c->ahead == 1 && x.cost.reg_limit <= AHEAD_MIN_REGS))
		return;
	if (over_slots(&x, f, t, M, N))
		return;
	rank_score(&x, f, t, M, N);
	if (cs->n == cs->cap) {
		cs->cap = cs->cap ? 2 * cs->cap : 256;
		cs->v = realloc(cs->v, cs->cap * sizeof *cs->v);
	}
	cs->v[cs->n++] = x;
}

/* Whether a persistent grid over c (ahead or not) may keep its colsum partials in shared memory:
 * where the registers they free carry the next row of a row with no padding (r_block = N), or
 * where the grid, even without the row ahead, does not fit the register budget with them held
 * (a row too wide for registers otherwise). The model has no term for the load and store each
 * row then makes. Measured on the H100 (bench/results/h100-2026-11-24-colsum-smem.md):
 * layer_norm_backward bf16 1.04-1.07x at 4096 and 8192 columns, where ahead=1 fits only so; the
 * same config with and without them where it bought nothing (one CTA an SM, ahead=1 both ways,
 * 5120 columns padded to 6144) 11% slower; two CTAs an SM without the row ahead in place of one
 * with it, 1-5% slower. */
static int
colsum_smem(const Facts *f, const Config *c, int ahead, int64_t M, int64_t N, const Target *t)
{
	if (ahead && c->r_block == N)
		return 1;
	Config g = *c;
	g.grid = GRID_PROBE;
	g.ahead = 0;
	g.smem = 0;
	Cost o;
	cost_model(f, &g, M, N, t, &o);
	return !within_budget(&o);
}

enum { BAND_NO, BAND_FEW_ROWS, BAND_PARTIALS };

/* A streamed band's CTAs load and store their segment's partials in shared memory at every
 * row: 8 bytes a colsum an element, against the row's [M,N] bytes in HBM. Where the colsums need
 * no row reduction (Facts.colsum_alone) the alternative is their own pass, which reads their
 * inputs again (colsum_late); bands take its place only where that shared-memory traffic is at
 * most BAND_SMEM_NUM/BAND_SMEM_DEN of the row's HBM bytes. Measured on an H200 at 14 points of 4
 * kernels (1024-4096 rows of 30000-131072 columns; bench/results/h200-2026-12-04-heldout7.md,
 * section 3), the best streamed band against the own pass: 0.645-0.742x the time at all 7 where
 * the ratio is 0.67-1.33 (rms_norm_backward bf16 and fp32, layer_norm_backward fp32); 0.906-1.127x
 * at all 7 where it is 1.6-2.67 (layer_norm_backward bf16, masked_pool, quant_err_cols), where
 * the bands are bound by the partials' shared-memory round trips, not by HBM. Paired bands
 * (band_paired) offered past the threshold too ran 1.090x the own pass by geomean at 11 heavy
 * points, 7 slower (to 1.503x; bench/results/h200-2026-12-04-streamed-bands.md, section 5). */
enum { BAND_SMEM_NUM = 3, BAND_SMEM_DEN = 2 };

static int
band_partials_light(const Facts *f)
{
	return (int64_t)8 * f->colsums * BAND_SMEM_DEN <=
	       (int64_t)BAND_SMEM_NUM * (f->tile_in_bytes + f->tile_out_bytes);
}

/* A grid of bands (config_band_grid: hardware clusters, or cooperating CTAs under coop=1) for a
 * kernel with sums over rows, first where its row blocks are fewer than the SMs: a grid of whole
 * rows then runs a CTA a row block and leaves the other SMs idle (held-out colonly bf16
 * 8x1000003: 8 CTAs, 0.09x torch.compile), where the band's CTAs each take a segment of every
 * row. Where the row blocks fill the SMs a grid of clusters keeping its rows on chip measured
 * slower than whole rows at 27 of 28 wide norm backward points, 1.33x by geomean (a CTA walks its
 * rows one after another either way, and the cluster adds an exchange and two barriers a row;
 * bench/results/h200-2026-11-29-cluster-grid.md); streamed bands in place of the colsums' own
 * pass are take_streamed_bands'. A cluster holds at most 16 CTAs, so 4 rows
 * took 64 of 132 SMs; cooperative bands take the cuts' K (cuts: M times the largest cluster under
 * the SMs, or a row of one exchange) and fill them: against the picks they replace, 0.815x the
 * time by geomean at 133 points of 1 to 128 rows, 15 slower by over 2%, 12 of them the held-out
 * colonly, 11 at fp32 (to 1.33x; bench/results/h200-2026-11-30-coop-bands.md).
 * At any rows, where a colsum needs a row reduction (not Facts.colsum_alone: no own pass, no
 * column pass) and a whole row's partials, one row group, pass a CTA's shared memory
 * (ws_colsums): whole rows then load and store every row's partials through the workspace slots
 * (N floats a colsum a row, through L2 and past half of it HBM), where a band's CTAs keep their
 * segment's partials on chip. Old pick against new at 21 points of two held-out kernels of that
 * class (rms_colsum, ln_bwd_recompute; 150-8192 rows of 32768-262144 columns): 0.610x the time
 * by geomean, 19 faster by over 2%, one slower (ln_bwd_recompute fp32 2048x65536, 1.048x;
 * bench/results/h200-2026-12-02-heldout4.md). Where no colsum needs one (Facts.colsum_alone, but
 * not colsum_only) the whole row's partials past shared memory take the colsums' own pass, and
 * streamed bands (smem=0) are offered in its place where their partials are light
 * (band_partials_light; take_streamed_bands decides). Returns the case (BAND_NO: neither);
 * *row_bytes (where not NULL): a whole row's partials at one row group, for the reason. */
static int
band_grid_fits(const Facts *f, const Config *c, int64_t M, int64_t N, const Target *t,
	       int64_t *row_bytes)
{
	Config w = *c;
	w.cluster = 1;
	w.coop = 0;
	w.m_block = 1;
	if (row_bytes)
		*row_bytes = (int64_t)f->colsums * smem_colsum_cols(&w, N) * 4;
	if (!f->colsums || c->cluster == 1)
		return BAND_NO;
	if (cdiv(M, c->m_block) < t->sms)
		return BAND_FEW_ROWS;
	if (f->colsum_only || !ws_colsums(f->colsums, &w, N))
		return BAND_NO;
	return !f->colsum_alone || (!c->smem && band_partials_light(f)) ? BAND_PARTIALS : BAND_NO;
}

/* The row blocks every CTA of a static grid walks (the fewest; 0 without a grid). */
static int64_t
ring_blocks(const Config *g, int64_t M)
{
	return g->grid > 0 ? cdiv(M, g->m_block) / g->grid : 0;
}

/* Whether the grid g is offered with the ring (ahead=RING_AHEAD): a kernel with sums over rows
 * on a static grid of persistent rows whose next block in registers (ahead=1) does not fit the
 * register budget or the limit AHEAD_MIN_REGS asks of it. */
static int
ring_offered(const Facts *f, const Config *g, int64_t M, int64_t N, const Target *t)
{
	if (!f->colsums || g->dynamic || !g->persistent)
		return 0;
	Config a = *g;
	a.ahead = 1;
	Cost o;
	cost_model(f, &a, M, N, t, &o);
	return !within_budget(&o) || o.reg_limit <= AHEAD_MIN_REGS;
}

/* The bytes of config c's slots: ncolsum x slots partial rows of N floats. */
static double
own_slot_bytes(const Facts *f, const Config *c, int64_t N)
{
	ColsumLayout cl;
	colsum_layout(c, f->colsums, N, &cl);
	return (double)f->colsums * cl.slots * cl.row_bytes;
}

/* settle_colpass's share: the own pass's slots against the inputs both read again. */
enum { COLPASS_SLOTS = 4 };

/* Where config c's colsums take their own pass (colsum_late) and the column pass on the same
 * rows (*g) reads 4 columns an access and can be emitted: 1 where the own pass's slots are
 * 1/COLPASS_SLOTS of the inputs both read again or more, or the model puts that column pass
 * (*cp) under the own pass (*own): settle_colpass's case; else 0 (both modelled); -1 where it
 * does not apply. */
static int
colpass_settles(const Kernel *k, const Facts *f, const Config *c, int64_t M, int64_t N,
		const Target *t, Config *g, Cost *own, Cost *cp)
{
	*g = *c;
	g->colpass = 1;
	if (!colsum_late(f->colsums, f->colsum_alone, c, N) || !colpass_wide(c, N) ||
	    config_check_emit(k, f->dtype, M, N, g, NULL) ||
	    config_check_target(k, f->dtype, N, g, t, NULL))
		return -1;
	cost_model(f, c, M, N, t, own);
	cost_model(f, g, M, N, t, cp);
	return COLPASS_SLOTS * own_slot_bytes(f, c, N) >= (double)M * N * f->colsum_tile_bytes ||
	       cp->us < own->us;
}

/* The column pass over whole rows where a colsum needs a row reduction (colpass_rows): grid g
 * is a looped whole row (no segments) whose rows start aligned for 4 columns an access
 * (colpass_wide), the row blocks fill the SMs, and a whole row's partials at one row group pass a
 * CTA's shared memory (ws_colsums), so that no whole row keeps them on chip: the class where
 * band_grid_fits offers bands (BAND_PARTIALS), which stream their rows at a third of copy
 * bandwidth (bench/results/h200-2026-12-02-heldout4.md). The rows there read their row once for
 * its reductions and write the row values; the column pass reads the colsums' inputs again, at
 * full rate. take_colpass_rows keeps it alone wherever it is offered. */
static const char *
colpass_rows_miss(char *buf, size_t n, const Facts *f, const Config *g, int64_t M, int64_t N,
		  const Target *t)
{
	Config w = *g;
	w.m_block = 1;
	w.colpass = 0;
	if (g->persistent)
		snprintf(buf, n, "the rows are persistent");
	else if (config_segments(g) > 1)
		snprintf(buf, n, "a row spans %d CTAs", config_segments(g));
	else if (!colpass_wide(g, N))
		snprintf(buf, n, "rows of %lld columns at vec=%d would be read element by element",
			 (long long)N, g->vec);
	else if (cdiv(M, g->m_block) < t->sms)
		snprintf(buf, n, "%lld row blocks do not fill the %d SMs",
			 (long long)cdiv(M, g->m_block), t->sms);
	else if (!ws_colsums(f->colsums, &w, N))
		snprintf(buf, n, "a whole row's partials (%lld bytes) stay in shared memory",
			 (long long)f->colsums * smem_colsum_cols(&w, N) * 4);
	else
		return NULL;
	return buf;
}

static int
colpass_rows_class(const Facts *f, const Config *g, int64_t M, int64_t N, const Target *t)
{
	char why[128];
	return f->colsums && !f->colsum_alone && !colpass_rows_miss(why, sizeof why, f, g, M, N, t);
}

/* Whether grid g (colpass=0) of a kernel with sums over rows is also offered with the column
 * pass (colpass=1): where the colsums need no row reduction, it reads 4 columns an access
 * (colpass_wide), and the inputs they read again, M x N x their bytes an element, take at most
 * 3/4 of the L2, where the rows' reads left them. Measured on an H200
 * (bench/results/h200-2026-12-01-colpass.md), forced over the picks: past the L2, 1.29-1.51x the
 * time where the partials stayed on chip (layer_norm_backward bf16 4096x4096, rms_norm_backward
 * bf16 2048x4096 at the edge); under it 0.61-0.87x where it took the place of partials kept in
 * shared memory or a combine over cooperative rows. Element by element (rows of odd widths) it
 * ran 1.20-1.30x (rms_norm_backward bf16 64x50257, the held-out colonly 8x1000003). In place of
 * the colsums' own pass, which reads the inputs from HBM again too, it ran 0.64-1.12x forced on
 * the same rows, and offered there the model's picks (other rows a CTA, smaller r_block) ran
 * 0.988x by geomean, 7 of 16 slower by 2-25%: not offered. A kernel that stores nothing but its
 * colsums (Facts.colsum_only) is offered it at any size: its rows read nothing, so the column
 * pass is the inputs' one read (bench/results/h200-2026-12-01-heldout3.md: bias_grad f32
 * 1024x131072, 246.6 -> 123.2 us, where its own pass read them twice in the model). A kernel
 * with no row reduction (Facts.colsum_whole) is offered it at any size and width: the column
 * pass then makes it whole (colpass_whole), so it is the kernel's one read of its inputs, and
 * element by element a warp's lanes still read consecutive columns. */
static int
colpass_offered(const Facts *f, const Config *g, int64_t M, int64_t N, const Target *t)
{
	if (f->colsum_whole || colpass_rows_class(f, g, M, N, t))
		return 1;
	return f->colsums && f->colsum_alone && colpass_wide(g, N) &&
	       (f->colsum_only ||
		(double)M * N * f->colsum_tile_bytes <= 0.75 * (double)t->l2_bytes);
}

/* A persistent grid over config c: SMs x the CTAs an SM holds at the grid's registers, static and
 * dynamic, each also with the next row ahead where rows are persistent and start aligned (and
 * for sums over rows, with the ring where ring_offered, and with the column pass where
 * colpass_offered). Only
 * where the row blocks outnumber the grid: else it is c's CTAs with a loop around. A row cut into
 * segments takes a grid only as a grid of bands (band_grid_fits). */
static void
add_grids(Cands *cs, const Kernel *k, const Facts *f, const Config *c, int64_t M, int64_t N,
	  const Target *t)
{
	if (config_segments(c) > 1 && !band_grid_fits(f, c, M, N, t, NULL))
		return;
	/* a sum over rows takes a static grid, whatever the rows (it is the only mode it has); a
	 * persistent row's partials may go to shared memory (colsum_smem), a looped row's always do
	 */
	int colsum = k->plan->ncolsum > 0;
	int aheads = c->persistent && config_rows_aligned(c, N) ? RING_AHEAD : 0;
	for (int ahead = 0; ahead <= aheads; ahead++)
		for (int dyn = 0; dyn <= !colsum; dyn++)
			for (int sm = c->smem; sm <= (colsum && c->persistent ? 1 : c->smem); sm++)
				for (int cp = 0; cp <= colpass_offered(f, c, M, N, t); cp++) {
					if (sm && colsum && c->persistent &&
					    (cp || !colsum_smem(f, c, ahead, M, N, t)))
						continue;
					Config g = *c;
					g.grid = GRID_PROBE;
					g.dynamic = dyn;
					g.ahead = ahead;
					g.smem = sm;
					g.colpass = cp;
					if (ahead >= 2 && !ring_offered(f, &g, M, N, t))
						continue;
					/* made whole in the column pass, the rows read nothing
					 * to hold or copy ahead, and its CTAs are wide */
					if (colpass_whole(f->colsum_whole, &g) &&
					    (ahead || sm || config_segments(&g) > 1 ||
					     g.num_warps < COLPASS_MIN_WARPS))
						continue;
					Cost o;
					cost_model(f, &g, M, N, t, &o);
					g.grid = grid_one_wave(&o, f, &g, M, N, t);
					/* the grid's own combine may take more registers than the
					 * probe's, and so fewer CTAs an SM: sized again at them */
					cost_model(f, &g, M, N, t, &o);
					int again = grid_one_wave(&o, f, &g, M, N, t);
					g.grid = again < g.grid ? again : g.grid;
					if (g.grid == cdiv(M, c->m_block) && !colsum)
						continue;
					if (ahead >= 2 && ring_blocks(&g, M) < RING_MIN_BLOCKS)
						continue;
					add(cs, k, f, &g, M, N, t);
				}
}

/* The ways to cut a row into segments: split s (through the workspace, where the plan allows) or
 * a cluster of c CTAs (where the target has clusters); at most one over 1. Whether a cluster may
 * cut a given config is cluster_fits'. */
typedef struct {
	int split, cluster, coop;
} Cut;

/* Cooperative rows (coop=1) spread a row over more CTAs than a cluster holds (or over CTAs where
 * there are no clusters), so they are cut where a cluster a row leaves SMs idle: M times the
 * largest cluster under the SMs. They take K = j * SMs / M CTAs a row for j = 1, 2 and 4 CTAs an
 * SM, and only for a kernel that cannot split (split rows need not run together). Whether every
 * CTA fits at once is add's question. Cut for every M under the SMs instead (measured on the H100
 * against this rule, both with coop_ns 800; bench/results/h100-2026-11-24-coop.md, section 3),
 * the 12 few-rows points of 1 to 4 rows that moved ran 1.174x faster by geomean (0.92-1.52x),
 * which this rule keeps, and the 20 of 16 to 64 rows 0.952x (0.73-1.37x): persistent rows over 2
 * to 8 CTAs in place of a looped cluster or a CTA a row lost at 13 of them. Each of those made two
 * exchanges or more, at 1.4-2.6 µs each where the model charges coop_ns (--regions,
 * bench/results/h100-2026-11-24-fp8.md, section 3); so under the SMs but past the first rule a
 * row is cut too where its plan's persistent row makes one exchange (row_exchanges), and
 * cluster_fits keeps those cuts to persistent rows: the two kernels of one exchange that moved
 * (jsd and rms_norm at 16 rows) ran 1.12-1.38x faster. */
#define COOP_SPREADS 3

/* A cluster's CTAs run together and each pays the same exchange and barrier whatever its size;
 * every cluster config measured fast had 4 to 16 warps a CTA, none smaller was measured. A
 * cooperative group's CTAs wait on their exchanges alike, so they take as many (cluster_fits). */
#define MIN_CLUSTER_WARPS 4

static int
cuts(Cut *out, const Facts *f, int64_t M, int64_t N, int vec, const Target *t)
{
	int n = 0;
	out[n++] = (Cut){1, 1, 0};
	if (f->split_ok)
		for (int s = 2; s <= 1024 && M * s <= 16 * t->sms; s *= 2)
			out[n++] = (Cut){s, 1, 0};
	/* powers of two: clusters of 3 to 15 CTAs ran 1.03-1.55x the time of the pick at 20
	 * kept-row points (bench/results/h200-2026-12-02-cluster-sizes.md) */
	for (int c = 2; c <= t->cluster_max; c *= 2)
		out[n++] = (Cut){1, c, 0};
	int most = t->cluster_max > 1 ? t->cluster_max : 1;
	int few = M * most < t->sms, one = M < t->sms && f->row_exchanges == 1;
	if (f->split_ok || !(few || one))
		return n;
	/* one row with sums over rows, too narrow for SMs / M segments that each fill a CTA of
	 * MIN_CLUSTER_WARPS warps (every K below cuts them thinner): the most CTAs whose segments
	 * do, where that is over the largest cluster. Measured on an H200 at rms_norm_backward
	 * and layer_norm_backward fp32 1x32768 against the 2- and 4-CTA clusters picked before:
	 * 0.60-0.73x the time (bench/results/h200-2026-11-30-coop-bands.md, section 5) */
	int64_t step = (int64_t)MIN_CLUSTER_WARPS * 32 * vec, fill = N / step;
	if (f->colsums && M == 1 && cdiv(N, t->sms) < step && fill > most)
		out[n++] = (Cut){1, (int)fill, 1};
	for (int j = 1, last = few ? most : 1; j <= 1 << (COOP_SPREADS - 1); j *= 2) {
		int64_t K = (int64_t)j * t->sms / M;
		if (K > last && K <= MAX_COOP)
			out[n++] = (Cut){1, (int)(last = (int)K), 1};
	}
	return n;
}

/* Clusters cost an exchange and a barrier that hold every CTA of the cluster, and on the H100
 * they measured slower than one CTA a row wherever the row fits a CTA and the rows fill the GPU,
 * slower held in registers than streamed (a cluster's CTAs are few and wide, and a persistent
 * one waits on all its loads at once), and slower than split rows where the plan allows a split
 * (long_sum, sum: a split spreads a row over up to 1024 CTAs that need not run together)
 * (bench/results/h100-2026-11-23-onchip.md). So a cluster cuts only a looped row of
 * MIN_CLUSTER_WARPS or more warps of a kernel that cannot split, and only where one CTA a row
 * cannot do the job: fewer rows than SMs (the GPU would idle), a row kept on chip that leaves
 * fewer than two CTAs an SM (the HBM would idle while the one CTA reduces), or a streamed band
 * whose segments keep on chip the colsum partials a whole row could not (streamed_band). */
/* A row kept on chip would take more than half an SM's shared memory: one CTA an SM. */
static int
kept_row_crowds_sm(const Facts *f, int64_t N, const Target *t)
{
	return N * f->kept_bytes > t->smem_per_sm / 2;
}

/* A streamed band in place of the colsums' own pass: a looped row over a cluster, not kept on
 * chip (smem=0), whose segment's partials fit a CTA's shared memory where a whole row's do not,
 * of a kernel whose colsums need no row reduction (Facts.colsum_alone) and whose partials are
 * light against its rows (band_grid_fits, BAND_PARTIALS). take_streamed_bands keeps them alone. */
static int
streamed_band(const Facts *f, const Config *c, int64_t M, int64_t N, const Target *t)
{
	return f->colsum_alone && c->cluster > 1 && !c->coop && !c->persistent && !c->smem &&
	       !c->colpass && !ws_colsums(f->colsums, c, N) &&
	       band_grid_fits(f, c, M, N, t, NULL) == BAND_PARTIALS;
}

static int
cluster_fits(const Config *c, const Facts *f, int64_t M, int64_t N, const Target *t)
{
	if (c->cluster <= 1)
		return 1;
	/* a cooperative row: cuts made it for rows too few for clusters, or for a row of one
	 * exchange, which must then be persistent; it waits on its exchanges like a cluster, so
	 * the same width of CTA */
	if (c->coop)
		return c->num_warps >= MIN_CLUSTER_WARPS &&
		       (c->persistent || M * t->cluster_max < t->sms);
	if (c->persistent || c->num_warps < MIN_CLUSTER_WARPS || f->split_ok)
		return 0;
	if (M < t->sms || streamed_band(f, c, M, N, t))
		return 1;
	return c->smem && kept_row_crowds_sm(f, N, t);
}

/* Rule r dropped x: keep it where it is the best the rule dropped so far. */
static void
set_aside(Cands *cs, int r, const Cand *x)
{
	if (!cs->aside[r].c.num_warps || better(x, &cs->aside[r]))
		cs->aside[r] = *x;
}

/* Rows kept in shared memory only where no row fits in registers: wherever both fit, the
 * persistent row measured as fast or faster on the H100 (softmax 2048x40960 and
 * fused_add_layernorm 2048x12288 bf16 7% faster, layer_norm 4096x16384 and welford 8192x14336 fp32
 * within 2%), and the model, which adds a persistent CTA's [N] reads from L2 instead of
 * overlapping them, would pick the kept row. Unless the persistent rows would lose anyway to a
 * looped row that reads the row from HBM again (the occupancy rule ranks them down): then the
 * kept rows stay, as that re-read is what they save (welford fp32 8192x14336: the looped row
 * 497.7 us, the persistent row 322.2, the kept row 361.7 at the pick's m_block 4 and 325.2 at 1;
 * bench/results/h100-2026-11-23-fill.md). On an H200 the best kept row it dropped ran 1.236x the
 * pick's time by geomean at 35 golden points, faster by over 5% at one (rms_norm_backward fp32
 * 262144x256, 0.884x; bench/results/h200-2026-12-01-set-aside.md, rkc tune's cand x). */
static void
drop_kept_rows(Cands *cs)
{
	double held = INFINITY, reread = INFINITY;
	for (int i = 0; i < cs->n; i++) {
		const Cand *x = &cs->v[i];
		if (x->c.persistent && config_segments(&x->c) == 1)
			held = fmin(held, x->score);
		else if (!x->c.persistent && !x->c.smem)
			reread = fmin(reread, x->score);
	}
	if (held == INFINITY || held > reread)
		return;
	int n = 0;
	for (int i = 0; i < cs->n; i++)
		if (!cs->v[i].c.smem || cs->v[i].c.persistent)
			cs->v[n++] = cs->v[i];
		else
			set_aside(cs, ASIDE_KEPT_ROWS, &cs->v[i]);
	cs->n = n;
}

/* A looped candidate that keeps its row on chip at COLSUM_WARPS_SM warps an SM or more, where its
 * CTAs fill every slot (a wave or more). Few rows at one CTA an SM of 32 warps take a CTA a row
 * (or a small cluster a row) on as many SMs: 4 rows of 16384-32768 columns over 4 or 8 SMs ran
 * 1.16-1.70x the time of the clusters of 4 and 8 CTAs of 8 warps the model ranks first there
 * (H200, bench/results/h200-2026-12-01-combine-trip.md). */
static int
kept_full(const Cand *x)
{
	return x->c.smem > 0 && x->cost.ctas_per_sm * x->c.num_warps >= COLSUM_WARPS_SM &&
	       x->cost.waves >= 1;
}

/* A sum over rows streams its rows (looped, the partials in shared memory) only where no
 * persistent row fits (a kernel made whole in the column pass, colpass_whole, has no rows to
 * stream: it stays either way). A looped row reads its row again each pass and loads and stores its
 * partials in shared memory at every row, which the model does not charge; where a persistent row
 * fits, it holds both in registers (docs/heuristics.md, "Sums over rows"). Where only looped rows
 * fit, they keep the row on chip wherever a config can at COLSUM_WARPS_SM warps an SM: the row
 * is then read once, where the model sees the L2 keep it for the second pass, and the kept rows
 * and partials take the SM's shared memory, so the CTA must hold the SM's warps itself. Measured
 * on the H100 (bench/results/h100-2026-11-25-wide-bwd.md, section 7): the 13 picks it moves ran
 * 0.55-0.97x the time of the row read again, 4 of them at shapes held out from the rule; kept at
 * any warps, the 4 picks of 8 or 16 warps an SM ran 1.05-1.24x. On an H200 the best candidate it
 * dropped ran 1.315x the pick's time by geomean at 22 golden points, none faster by over 5%
 * (the kept row at 16 warps 0.957x at layer_norm_backward bf16 8192x16384;
 * bench/results/h200-2026-12-01-set-aside.md). */
static void
drop_streamed_colsums(Cands *cs, const Facts *f)
{
	int held = 0, kept = 0;
	for (int i = 0; i < cs->n; i++) {
		held |= cs->v[i].c.persistent;
		kept |= kept_full(&cs->v[i]);
	}
	if (!f->colsums || (!held && !kept))
		return;
	int n = 0;
	for (int i = 0; i < cs->n; i++) {
		const Cand *x = &cs->v[i];
		/* made whole in the column pass, its rows stream nothing */
		if (colpass_whole(f->colsum_whole, &x->c) ||
		    (held ? x->c.persistent : kept_full(x)))
			cs->v[n++] = *x;
		else {
			set_aside(cs, ASIDE_STREAMED, x);
			if (!held && !x->c.smem &&
			    (!cs->reread.c.num_warps || better(x, &cs->reread)))
				cs->reread = *x;
		}
	}
	cs->n = n;
}

/* The rules that keep partials on chip over partials past shared memory (drop_ws_colsums,
 * take_streamed_bands) count a candidate on chip only where the model ranks it within
 * ONCHIP_SLACK of the best it would drop, over twice the 1.8x the model charges the colsums' own
 * pass past what it runs (lone_own_colsums). Where a whole row's partials fit only at chunks of a
 * few hundred columns (one colsum at 57345-58112 columns, two at 28673-29056: 58112 floats at
 * r_block 256 are 232448 bytes, the most a CTA has), those configs were the pick, modelled 8-18x
 * slower than the own pass or a band (rms_norm_backward bf16 1024x58001: r_block 256 at one warp,
 * 4551.7 us modelled). */
#define ONCHIP_SLACK 4.0

/* Partials past shared memory (ws_colsums) are the fallback of a row whose partials no CTA's
 * shared memory holds: summed in the colsums' own pass, reading their inputs again (colsum_late),
 * or kept in the workspace, every row loading and storing them through L2. Wherever a config keeps
 * the partials on chip or in registers, such configs are dropped: the own pass against partials
 * in shared memory, where both fit, measured 0.99-1.00x the time at bf16 and 1.18-1.22x at fp32
 * on an H200 (layer_norm_backward at 28672 columns, bench/results/h200-2026-11-29-own-pass.md).
 * The best workspace config it dropped ran 2.083x the pick's time by geomean at 22 golden points
 * on an H200, none faster (bench/results/h200-2026-12-01-set-aside.md). */
static void
drop_ws_colsums(Cands *cs, const Facts *f, int64_t N)
{
	double ws = INFINITY;
	for (int i = 0; i < cs->n; i++)
		if (ws_colsums(f->colsums, &cs->v[i].c, N))
			ws = fmin(ws, cs->v[i].score);
	int onchip = 0;
	for (int i = 0; i < cs->n && !onchip; i++)
		onchip =
		    !ws_colsums(f->colsums, &cs->v[i].c, N) && cs->v[i].score <= ONCHIP_SLACK * ws;
	if (!onchip)
		return;
	int n = 0;
	for (int i = 0; i < cs->n; i++)
		if (!ws_colsums(f->colsums, &cs->v[i].c, N))
			cs->v[n++] = cs->v[i];
		else
			set_aside(cs, ASIDE_WS_COLSUMS, &cs->v[i]);
	cs->n = n;
}

/* A band paired on its SM: one row at a time (m_block 1) and two CTAs an SM or more, so that one
 * streams while the other waits at its cluster's exchange. */
static int
band_paired(const Cand *x)
{
	return x->c.m_block == 1 && x->cost.ctas_per_sm >= 2;
}

/* Where streamed bands are offered (streamed_band) and one is paired (band_paired), the paired
 * ones are kept alone, in place of the colsums' own pass (colsum_late, reading their inputs
 * again) and of rows kept on chip over a cluster. The bands are set aside instead where no band
 * is paired, where a whole row keeps its partials on chip (persistent, in shared memory, or the
 * column pass) within ONCHIP_SLACK of the best band, and in the batch-invariant mode (not normal),
 * none of them measured against the bands. The model ranks rows of two to four row groups a CTA
 * over clusters of 16 first, and charges the own pass 1.5-1.8x what it runs. Measured on an H200
 * (bench/results/h200-2026-12-04-streamed-bands.md): rkc tune over the bands at 14 points of the
 * class (rms_norm_backward, layer_norm_backward fp32 and the held-out add_rms_bwd; 200-4096 rows
 * of 30000-262144 columns), the best band paired at all 14, 0.62-0.87x the time of the old
 * pick; the pair the model ranks first within 8% of that best at all 14 (0.62-0.94x the old
 * pick), where its first band unpaired (two to four row groups a CTA over clusters of 16) ran
 * 1.00-1.54x the best. Then at 16 points the rule was not fitted on: 0.609-1.006x the time of the
 * old pick, 0.784x by geomean, where the two bands no pair could cut (one CTA an SM over clusters
 * of 16, at 262144 and 500000 columns) had run 1.070x and 1.107x: so they are set aside. */
static void
take_streamed_bands(Cands *cs, const Facts *f, int64_t M, int64_t N, const Target *t, int normal)
{
	int any = 0, paired = 0;
	double best = INFINITY;
	for (int i = 0; i < cs->n; i++) {
		const Config *c = &cs->v[i].c;
		int band = c->grid > 0 && streamed_band(f, c, M, N, t);
		any |= band;
		paired |= band && band_paired(&cs->v[i]);
		if (band)
			best = fmin(best, cs->v[i].score);
	}
	if (!any)
		return;
	int other = !normal || !paired;
	for (int i = 0; i < cs->n; i++) {
		const Config *c = &cs->v[i].c;
		other |= config_segments(c) == 1 && !ws_colsums(f->colsums, c, N) &&
			 cs->v[i].score <= ONCHIP_SLACK * best;
	}
	int n = 0;
	for (int i = 0; i < cs->n; i++) {
		const Config *c = &cs->v[i].c;
		int band = c->grid > 0 && streamed_band(f, c, M, N, t);
		if (other ? !band : band && band_paired(&cs->v[i]))
			cs->v[n++] = cs->v[i];
		else
			set_aside(cs, ASIDE_STREAMED_BANDS, &cs->v[i]);
	}
	cs->n = n;
}

/* Where the column pass reading row values is offered (colpass_rows_class), it is kept alone:
 * every other candidate there streams its rows with partials past shared memory, through the
 * workspace (ws_colsums), or cuts them into bands whose CTAs keep a segment's. The model charges
 * the column pass's reads at the rows' rate and its round trips as a tail after them, 1.5-3x what
 * they measured, and ranks the bands first. Measured on an H200
 * (bench/results/h200-2026-12-02-colpass-rows.md): one config of it (L4096 m1 w16 v4 g264)
 * forced over the band picks at 8 points of rms_colsum and ln_bwd_recompute (1024x131072 and
 * 2048x65536, bf16 and fp32), 0.615-0.916x the time; then rkc tune at 10 points of the held-out
 * rms_colsum, ln_bwd_recompute and moe_aux (256 to 2048 rows of 65536 to 131072 columns): the
 * pick 0.476-0.977x the time of the best band set aside, 0.731x by geomean, and within 7.4% of
 * the best of the model's first 10 (all of them the column pass, all faster than the bands). */
static void
take_colpass_rows(Cands *cs, const Facts *f)
{
	int any = 0;
	for (int i = 0; i < cs->n && !any; i++)
		any = colpass_rows(f->colsums, f->colsum_alone, &cs->v[i].c);
	if (!any)
		return;
	int n = 0;
	for (int i = 0; i < cs->n; i++)
		if (colpass_rows(f->colsums, f->colsum_alone, &cs->v[i].c))
			cs->v[n++] = cs->v[i];
		else
			set_aside(cs, ASIDE_COLPASS_ROWS, &cs->v[i]);
	cs->n = n;
}

/* The colsums' own pass (colsum_late) writes a slot of ncolsum x N floats a row group, at widths
 * whose partials no CTA's shared memory holds, so the grid's slots pass the L2 (132 CTAs of
 * layer_norm_backward at 65536 columns: 67 MB), written once and read once by the combine. Where
 * the candidates have one and the rows give every SM two row blocks or more (fewer, and a grid of
 * one CTA an SM has the same slots as one a row), only a lone CTA an SM of COLSUM_WARPS_SM warps
 * and one row group, the fewest slots, is kept. The model charges the slots, but ranks two CTAs an
 * SM ahead where its latency term for a lone CTA outweighs them; it models these rows 1.5-1.8x
 * slower than they run (docs/heuristics.md, "Sums over rows on looped rows"). Measured on an H200
 * against two CTAs of 16 warps at the same chunk (bench/results/h200-2026-11-29-own-pass.md):
 * 0.80-0.92x the time at layer_norm_backward bf16 1024x65536 and 4096x65536, fp32 2048x30000 and
 * rms_norm_backward bf16 1024x65536; the best it dropped, 1.08-1.26x the pick's time at the 6 such
 * golden points (bench/results/h200-2026-12-01-set-aside.md). */
static int
lone_own(const Cand *x, const Facts *f, int64_t N)
{
	return colsum_late(f->colsums, f->colsum_alone, &x->c, N) && x->cost.ctas_per_sm == 1 &&
	       x->c.num_warps >= COLSUM_WARPS_SM && x->c.m_block == 1;
}

static void
lone_own_colsums(Cands *cs, const Facts *f, int64_t M, int64_t N, const Target *t)
{
	if (M < 2 * (int64_t)t->sms)
		return;
	int any = 0;
	for (int i = 0; i < cs->n && !any; i++)
		any = lone_own(&cs->v[i], f, N);
	if (!any)
		return;
	int n = 0;
	for (int i = 0; i < cs->n; i++) {
		const Cand *x = &cs->v[i];
		if (lone_own(x, f, N))
			cs->v[n++] = *x;
		else
			set_aside(cs, ASIDE_LONE_OWN, x);
	}
	cs->n = n;
}

/* A looped row kept on chip over a cluster, one CTA an SM, whose whole clusters leave over a
 * quarter of the SMs idle (slots, counted GPC by GPC, under 3/4 of the SMs), over more than one
 * wave, where the rows fill the SMs (M at least their count; fewer rows were not measured) and the
 * kept row holds what a later pass would read again (no read-back: kept_bytes at least each later
 * pass's bytes). Each such SM alternates between filling its CTA's segment from HBM and the passes
 * over it in shared memory, with no second CTA to overlap them, and a fourth of the SMs stream
 * nothing; the model charges neither (it has no term for the passes' arithmetic). Measured on an
 * H200 (bench/results/h200-2026-12-01-lone-clusters.md) against the policy's best row read again
 * (`--config smem=0,cluster=1`) at every pick of a grid of 22 kernels, bf16 and fp32, M 512 and
 * 2048, N 65536-500000 that kept its row so (26 points of 9 kernels, clusters of 16: 96 of 132
 * SMs): the row read again ran 0.50-0.84x the time at the 22 points of the 7 kernels without a
 * read-back. The two with one keep h = x + res (4 bytes an element at fp32) where a later pass
 * reads x and res (8): the row read again ran 0.99x (fused_add_rmsnorm) and 1.06x
 * (fused_add_layernorm), so they keep their rows. Clusters of 8 at one CTA an SM (112 SMs) kept
 * their rows 1.23-1.27x faster than the row read again (gated_rmsnorm fp32), so they stay. */
static int
lone_cluster_row(const Cand *x, const Target *t)
{
	return x->c.smem > 0 && !x->c.persistent && x->c.cluster > 1 && !x->c.coop &&
	       x->cost.ctas_per_sm == 1 && x->cost.waves > 1 && 4 * x->cost.slots < 3 * t->sms;
}

/* Whether a kept row reads back: a later pass loads more bytes an element than the row keeps on
 * chip (fused_add_*: h = x + res kept, x and res read again), so shared memory is not all the
 * later passes read. */
static int
kept_reads_back(const Facts *f)
{
	for (int p = 1; p < f->passes && p < MAX_PASSES; p++)
		if (f->pass_tile_bytes[p] > f->kept_bytes)
			return 1;
	return 0;
}

static void
drop_lone_clusters(Cands *cs, const Facts *f, int64_t M, const Target *t)
{
	if (M < t->sms || kept_reads_back(f))
		return;
	int other = 0;
	for (int i = 0; i < cs->n && !other; i++)
		other = !lone_cluster_row(&cs->v[i], t);
	if (!other)
		return;
	int n = 0;
	for (int i = 0; i < cs->n; i++)
		if (!lone_cluster_row(&cs->v[i], t))
			cs->v[n++] = cs->v[i];
		else
			set_aside(cs, ASIDE_LONE_CLUSTERS, &cs->v[i]);
	cs->n = n;
}

/* The best of cs's candidates (cs->n > 0), as better() ranks them. */
static const Cand *
best_cand(const Cands *cs)
{
	const Cand *b = &cs->v[0];
	for (int i = 1; i < cs->n; i++)
		if (better(&cs->v[i], b))
			b = &cs->v[i];
	return b;
}

/* A row the pick pads: a persistent row of one segment whose r_block, a multiple of its threads
 * times vec, runs past N, so the lanes past it hold nothing. The byte model has no cost for idle
 * lanes, so it ranks such a row as if every lane worked. Then the row is also offered to the
 * counts of warps that are not powers of two over which its vectors split evenly, one row a CTA:
 * 5120 bf16 columns, 640 vectors of 8, are 4 a thread of 5 warps (or 2 of 10), where 8 warps pad
 * the row to 6144. Only there: where the pick already fits the row, an odd count is a different
 * trade of threads for elements a thread, which the model does not rank well.
 * Measured on an H200 (bench/results/h200-2026-11-29-odd-warps.md) at the 21 sm_90 picks that
 * offering odd counts at every row moved: the 10 padded ones 0.960x the time by geomean, 4
 * faster by 2-15% (layer_norm bf16 2048x7168 22.8 -> 19.4 us), none slower by over 0.7%; the 11
 * that fit already 1.013x, 3 slower by 4-9% (welford bf16 16384x7168, 4 warps -> 7). */
static void
odd_warps(Cands *cs, const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
	  int vec)
{
	if (!cs->n || f->colsums) /* sums over rows: not measured */
		return;
	const Cand *b = best_cand(cs);
	if (!b->c.persistent || config_segments(&b->c) > 1 || b->c.r_block <= N)
		return;
	for (int w = 3; w <= 32 && 32 * w <= t->max_threads_cta; w++) {
		if (!config_odd_fit(N, vec, w))
			continue;
		Config c = {.persistent = 1,
			    .r_block = N,
			    .m_block = 1,
			    .num_warps = w,
			    .vec = vec,
			    .split = 1,
			    .min_ctas = 1,
			    .cluster = 1};
		add(cs, k, f, &c, M, N, t);
		add_grids(cs, k, f, &c, M, N, t);
	}
}

/* Every candidate at vector width vec (config_vec's, or the batch-invariant mode's). normal (not
 * the batch-invariant mode) adds odd_warps' candidates, not measured in that mode, and runs
 * drop_lone_clusters, which there would turn the order, fixed at M_REF rows for every M, into a
 * CTA a row at few rows (fused_linear_jsd fp32 3x256000: 12.2 us modelled over clusters of 16,
 * 459.7 without). */
static void
enumerate(Cands *cs, const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
	  int64_t mcap, int vec, int normal)
{
	Cut cut[16];
	int ncut = cuts(cut, f, M, N, vec, t);
	for (int ci = 0; ci < ncut; ci++) {
		int split = cut[ci].split, cluster = cut[ci].cluster, segs = split * cluster;
		int coop = cut[ci].coop;
		int64_t seg = cdiv(N, segs);
		for (int w = 1; 32 * w <= t->max_threads_cta; w *= 2)
			for (int m = 1; m <= 32 * w && m <= mcap; m *= 2) {
				Config c = {.m_block = m,
					    .num_warps = w,
					    .vec = vec,
					    .split = split,
					    .min_ctas = 1,
					    .cluster = cluster,
					    .coop = coop};
				int64_t step = (int64_t)config_tpr(&c) * vec;
				/* a thread with no element of its row is waste the model cannot
				 * see, unless no more rows fit in the CTA to give it one */
				int last_m = m == mcap || m == 32 * w;
				if (step > (vec > np2(seg) ? vec : np2(seg)) &&
				    config_tpr(&c) > 1 && !last_m)
					continue;
				if (segs > 1 && seg < step)
					continue;
				c.persistent = 1;
				c.r_block = cdiv(seg, step) * step;
				if (c.r_block / config_tpr(&c) <= MAX_HELD_PER_THREAD &&
				    cluster_fits(&c, f, M, N, t)) {
					add(cs, k, f, &c, M, N, t);
					add_grids(cs, k, f, &c, M, N, t);
				}
				c.persistent = 0;
				for (c.r_block = step; c.r_block < seg; c.r_block *= 2) {
					if (c.r_block / config_tpr(&c) > MAX_CHUNK_PER_THREAD)
						break;
					/* smem=2 is no candidate: the model cannot tell the two
					 * fills apart; settle_fill picks the fill of the pick
					 * (docs/heuristics.md, "Two fills") */
					for (c.smem = 0; c.smem <= (f->kept_bytes > 0); c.smem++)
						if (cluster_fits(&c, f, M, N, t)) {
							add(cs, k, f, &c, M, N, t);
							add_grids(cs, k, f, &c, M, N, t);
						}
					c.smem = 0;
				}
			}
	}
	take_streamed_bands(cs, f, M, N, t, normal);
	take_colpass_rows(cs, f);
	drop_kept_rows(cs);
	drop_ws_colsums(cs, f, N);
	lone_own_colsums(cs, f, M, N, t);
	drop_streamed_colsums(cs, f);
	if (normal) {
		drop_lone_clusters(cs, f, M, t);
		odd_warps(cs, k, f, M, N, t, vec);
	}
}

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
		if (differs(&cs->v[i].c, b, knob) && (!best || better(&cs->v[i], best)))
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
		    (rule < 0 || better(&cs->aside[r], &cs->aside[rule])))
			rule = r;
	if (alt || rule < 0)
		return vs(buf, n, b, alt);
	int n0 = snprintf(buf, n, "no other value among the configs kept; set aside by %s, ",
			  aside_rules[rule]);
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
		    structure_tie(&x->c, &b->c, x->heavy) || !lost(x, b))
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
	return x->cost.ctas > b->cost.ctas && dispatch_tie(x, b);
}

/* x lost to b through the rows tie although the model ranked it ahead: more rows a CTA */
static int
lost_rows(const Cand *x, const Cand *b)
{
	return rows_tie(&b->c) && x->c.m_block > b->c.m_block && x->score < b->score &&
	       !dispatch_tie(x, b);
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
		    structure_tie(&g, &b->c, 0))
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
		const Cost *n = dispatch_near(&y->cost) ? &y->cost : &b->cost;
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

static void
explain(Choice *out, const Cands *cs, const Cand *b, const Kernel *k, const Facts *f, int64_t M,
	int64_t N, const Target *t, int64_t mcap)
{
	const Config *c = &b->c;
	const Cost *o = &b->cost;
	int size = config_elem_size(k, f->dtype), tpr = config_tpr(c);
	int64_t seg = cdiv(N, config_segments(c)), ept = c->r_block / tpr;
	char alt[200];

	if (c->vec < config_vec(k, f->dtype, N))
		choice_reason(out,
			      "vec=%d: the batch-invariant mode's, the largest power of two that "
			      "divides N = %lld up to the default %d, so every row starts aligned "
			      "and no row is cut into head, body and tail by its position",
			      c->vec, (long long)N, config_vec(k, f->dtype, N));
	else if (N * size % 16 == 0)
		choice_reason(
		    out, "vec=%d: 16-byte accesses, N*size = %lld*%d bytes is a multiple of 16",
		    c->vec, (long long)N, size);
	else
		choice_reason(
		    out,
		    "vec=%d: 16-byte accesses over each row's aligned body; N*size = "
		    "%lld*%d bytes is not a multiple of 16, so a row's misaligned head and "
		    "tail go element by element",
		    c->vec, (long long)N, size);

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
		char why[160];
		if (M * most < t->sms)
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
	else if (M >= t->sms && !kept_row_crowds_sm(f, N, t))
		choice_reason(
		    out,
		    "cluster=1: one CTA a row, as %lld rows fill %d SMs and a row kept on "
		    "chip (%lld bytes) leaves two CTAs an SM (clusters only where either "
		    "fails)",
		    (long long)M, t->sms, (long long)N * f->kept_bytes);
	else
		choice_reason(out, "cluster=1: %s", vs_knob(alt, sizeof alt, cs, b, K_CLUSTER));
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
	if (lc->c.num_warps && better(lc, b))
		choice_reason(
		    out,
		    "kept rows over clusters set aside (drop_lone_clusters): over a cluster "
		    "of %d at one CTA an SM, whole clusters fill %lld of %d SMs, and each "
		    "alternates between filling its segment from HBM and the passes over it "
		    "in shared memory, which the model does not charge: %s",
		    lc->c.cluster, (long long)lc->cost.slots, t->sms, vs(alt, sizeof alt, b, lc));
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
	if (lone_colsum(f, c, N, t) && o->ctas_per_sm == 1)
		choice_reason(
		    out,
		    "one CTA an SM of %d warps, not ranked down for occupancy: two CTAs an "
		    "SM would keep %.1f MB of rows read again in flight, over the L2's "
		    "%.1f MB, where one CTA's %.1f MB stay in it",
		    c->num_warps, 2.0 * t->sms * N * f->kept_bytes / 1e6, t->l2_bytes / 1e6,
		    (double)t->sms * N * f->kept_bytes / 1e6);
	int64_t blocks = cdiv(M, c->m_block);
	char ahead[16] = "", band[256] = "";
	int64_t row_bytes;
	if (config_band_grid(c) && band_grid_fits(f, c, M, N, t, &row_bytes) == BAND_PARTIALS)
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
		colpass_lanes(cdiv(cdiv(N, 4), o->ctas), M, c->num_warps * 32, c->min_ctas,
			      colpass_words(f, c, N), &ln);
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
		    "%lld rows a trip) and stores them, no partials or slots: %.1f us of %s; %s",
		    why, whole ? "each" : "after its rows each",
		    (long long)cdiv(cdiv(N, 4), o->ctas), (long long)M, (long long)ln.lanes,
		    (long long)ln.u, o->combine_us,
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
		if (colpass_offered(f, c, M, N, t))
			choice_reason(out,
				      "colpass=0: the partials' combine, not the column pass; %s",
				      vs_knob(alt, sizeof alt, cs, b, K_COLPASS));
		else if (f->colsum_alone && !colpass_wide(c, N))
			choice_reason(out,
				      "colpass=0: rows of %lld columns at vec=%d: a column pass "
				      "would read them element by element",
				      (long long)N, c->vec);
		else if (f->colsum_alone && colsum_late(f->colsums, f->colsum_alone, c, N)) {
			Config g;
			Cost own, cp;
			int settles = colpass_settles(k, f, c, M, N, t, &g, &own, &cp);
			if (settles < 0)
				choice_reason(out, "colpass=0: the column pass on these rows "
						   "cannot be emitted or does not fit the target");
			else if (!settles) /* 1: settled */
				choice_reason(
				    out,
				    "colpass=0: the own pass and a column pass both read "
				    "the inputs (%.1f MB) again; the own pass's slots (%.1f "
				    "MB) are under 1/%d of them, and the model puts the own "
				    "pass under the column pass: %.1f us, not %.1f "
				    "(settle_colpass)",
				    (double)M * N * f->colsum_tile_bytes / 1e6,
				    own_slot_bytes(f, c, N) / 1e6, COLPASS_SLOTS, own.us, cp.us);
		} else if (f->colsum_alone)
			choice_reason(out,
				      "colpass=0: the inputs the colsums read (%.1f MB) are over "
				      "3/4 of the L2 (%.1f MB), so a column pass would read them "
				      "from HBM again",
				      (double)M * N * f->colsum_tile_bytes / 1e6,
				      t->l2_bytes / 1e6);
		else
			choice_reason(
			    out,
			    "colpass=0: a colsum needs a row reduction, and the column "
			    "pass then takes the rows' values from looped rows of one CTA "
			    "that fill the SMs, read 4 columns an access, and whose partials "
			    "would pass shared memory: %s",
			    colpass_rows_miss(alt, sizeof alt, f, c, M, N, t));
	}
	int spare, held = occupancy_ctas(f, o, c, t, M, N, &spare);
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
		colpass_lanes(cdiv(cdiv(N, 4), c->grid), M, c->num_warps * 32, c->min_ctas,
			      colpass_words(f, c, N), &ln);
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

/* Whether ptxas can fit a thread of capped registers under min_ctas = k: within its cap at k (the
 * register file over the k CTAs' threads is never below it). No headroom for the model's error:
 * an eighth of that share kept free bound 71 sm_90 picks one CTA lower where ptxas fits the
 * higher count (at most 40 bytes of spills, one of them); on the H100 the higher count ran 0.975x
 * the time by geomean over them, 11 faster by 2-30% (welford bf16 8192x14336 213.3 -> 155.8 us,
 * gelu_tanh_gated bf16 4096x16384 234.3 -> 164.2), 2 slower by 2.5%
 * (bench/results/h100-2026-11-24-tree.md, section 6). */
static int
min_ctas_fits(const Target *t, int threads, int k, int capped)
{
	return capped <= target_reg_limit(t, threads, k);
}

/* Whether ptxas's cap at k CTAs an SM is over a SQUEEZE_MAX-th under the predicted regs. */
static int
over_squeezed(const Target *t, int threads, int k, int regs)
{
	return target_reg_limit(t, threads, k) * SQUEEZE_MAX < regs * (SQUEEZE_MAX - 1);
}

/* The CTAs an SM to bind ptxas to (Config.min_ctas): left free, ptxas spends registers up to
 * what one CTA an SM allows where the model predicted fewer, and the occupancy the cost model
 * planned is lost (docs/heuristics.md, "min_ctas"). As many as the model plans at
 * its predicted registers, no more than there are waves to run, and fewer while the capped count
 * would not fit ptxas's cap there or that cap is over a SQUEEZE_MAX-th under the predicted count.
 */
int
rkc_min_ctas(const Facts *f, const Config *c, int64_t M, int64_t N, const Target *t, Cost *o)
{
	Config one = *c;
	one.min_ctas = 1;
	cost_model(f, &one, M, N, t, o);
	int threads = 32 * c->num_warps;
	int64_t waves = cdiv(o->ctas, t->sms);
	/* a cooperative grid needs all its waves resident: never fewer CTAs an SM than that, and
	 * under a grid of clusters, whole clusters (at one CTA an SM a GPC of 16 to 18 SMs holds
	 * one cluster of 16, so 8 clusters of 16 need two: the driver refused the cooperative
	 * launch of 8 at min_ctas 1) */
	int coop = config_cooperative(c, f->colsums, f->colsum_alone, N);
	while (coop && waves < o->ctas_per_sm && cost_slots(c, t, (int)waves, M, NULL) < o->ctas)
		waves++;
	int k = o->ctas_per_sm < waves ? o->ctas_per_sm : (int)waves;
	while (k > 1 && !(coop && k <= waves) && !min_ctas_fits(t, threads, k, o->capped))
		k--;
	while (k > 1 && !(coop && k <= waves) && over_squeezed(t, threads, k, o->regs))
		k--;
	return k > 1 ? k : 1;
}

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

/* How settle runs: SETTLE_INVARIANT in the batch-invariant mode, SETTLE_NORMAL outside it, and
 * SETTLE_AS_RANKED outside it with the ranked knobs as the ranking had them (rkc_as_ranked). */
enum { SETTLE_INVARIANT, SETTLE_NORMAL, SETTLE_AS_RANKED };

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
	    kept_reads_back(f))
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
	if (mode == SETTLE_AS_RANKED || colpass_settles(k, f, c, M, N, t, &g, &own, &cp) != 1)
		return;
	double slots = own_slot_bytes(f, c, N), inputs = (double)M * N * f->colsum_tile_bytes;
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
	colpass_lanes(cdiv(cdiv(N, 4), g.grid), M, 32 * g.num_warps, g.min_ctas,
		      colpass_words(f, &g, N), &ln);
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
	    ring_blocks(c, M) < RING_MIN_BLOCKS)
		return;
	g.ahead = RING_AHEAD;
	if (config_check_emit(k, f->dtype, M, N, &g, NULL) ||
	    config_check_target(k, f->dtype, N, &g, t, NULL))
		return;
	Cost o;
	cost_model(f, &g, M, N, t, &o);
	if (o.ctas_per_sm < out->cost.ctas_per_sm || !within_budget(&o))
		return;
	choice_reason(out,
		      "ahead=%d, not the ranking's 1: the row spends %d instructions an element "
		      "(%d or more), through which the next block in registers is held; the ring "
		      "holds %d blocks in shared memory (%lld bytes a CTA) at %d regs, not %d, "
		      "and %d CTAs an SM, each walking %lld row blocks (%d or more; the model has "
		      "no term for it)",
		      RING_AHEAD, f->ops, RING_MATH_OPS, RING_AHEAD,
		      (long long)smem_ring_bytes(&g, f->tile_in_bytes), o.regs, out->cost.regs,
		      o.ctas_per_sm, (long long)ring_blocks(c, M), RING_MIN_BLOCKS);
	*c = g;
	out->cost = o;
}

/* Which fill a pick that keeps rows (smem=1) takes: cp.async from FILL_MIN_CHUNKS chunks a CTA's
 * first pass streams, or from FILL_MATH_CHUNKS where that pass spends FILL_MATH_OPS instructions
 * an element or more, where the validator accepts it (its copies are 4 bytes or more). Under a
 * persistent grid a CTA streams the chunks of every row block it walks. */
static void
settle_fill(Choice *out, const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t)
{
	Config *c = &out->cfg, g = *c;
	if (c->smem != 1 || c->persistent)
		return;
	int64_t chunks = first_pass_chunks(c, M, N);
	g.smem = 2;
	int heavy = f->pass_ops[0] >= FILL_MATH_OPS;
	if (heavy && chunks < FILL_MATH_CHUNKS)
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

/* The knobs the ranking leaves alone, set on the pick: a kept row's r_block at few chunks, the
 * ring of a heavy row, the stash, the tail's steps, min_ctas, evict as the A/B above, and the fill
 * of kept rows; mode: SETTLE_*. */
static void
settle(Choice *out, const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
       int mode)
{
	Config *c = &out->cfg;
	Cost o;
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
		   min_ctas_fits(t, threads, mc + 1, o.capped) &&
		   over_squeezed(t, threads, mc + 1, o.regs);
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

/* The candidates of cs best first into out (at most max), each explained and settled, after
 * the reasons first (NULL-terminated) when given, settled in mode (SETTLE_*). Returns how many. */
static int
ranked(Cands *cs, const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
       int64_t mcap, const char *const *first, Choice *out, int max, int mode)
{
	int n = 0;
	char *used = calloc(cs->n + 1, 1);
	for (; n < max && n < cs->n; n++) {
		int b = -1;
		for (int i = 0; i < cs->n; i++)
			if (!used[i] && (b < 0 || better(&cs->v[i], &cs->v[b])))
				b = i;
		used[b] = 1;
		memset(&out[n], 0, sizeof out[n]);
		for (int r = 0; first && first[r]; r++)
			choice_reason(&out[n], "%s", first[r]);
		out[n].cfg = cs->v[b].c;
		out[n].cost = cs->v[b].cost;
		Cand x = cs->v[b];
		explain(&out[n], cs, &x, k, f, M, N, t, mcap);
		settle(&out[n], k, f, M, N, t, mode);
	}
	free(used);
	return n;
}

static int64_t
m_cap(int64_t M, const Target *t)
{
	return pp2(M / t->sms > 1 ? M / t->sms : 1);
}

/* When nothing fits the budget: the smallest looped chunk at the widest CTA. */
static Config
fallback(int64_t N, const Target *t, int vec)
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
	int64_t mcap = m_cap(M, t);
	Cands cs = {0};
	enumerate(&cs, k, f, M, N, t, mcap, config_vec(k, f->dtype, N), 1);
	int n = ranked(&cs, k, f, M, N, t, mcap, NULL, out, max, SETTLE_NORMAL);
	free(cs.v);
	return n;
}

int
rkc_set_aside(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t, Choice *out,
	      const char **rule)
{
	Cands cs = {0};
	enumerate(&cs, k, f, M, N, t, m_cap(M, t), config_vec(k, f->dtype, N), 1);
	int n = 0;
	for (int r = 0; r < NASIDE; r++) {
		const Cand *x = &cs.aside[r];
		if (!x->c.num_warps)
			continue;
		memset(&out[n], 0, sizeof out[n]);
		choice_reason(&out[n], "set aside by %s", aside_rules[r]);
		out[n].cfg = x->c;
		out[n].cost = x->cost;
		settle(&out[n], k, f, M, N, t, SETTLE_NORMAL);
		rule[n++] = aside_rules[r];
	}
	free(cs.v);
	return n;
}

int
rkc_as_ranked(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t, Choice *out)
{
	int64_t mcap = m_cap(M, t);
	Cands cs = {0};
	enumerate(&cs, k, f, M, N, t, mcap, config_vec(k, f->dtype, N), 1);
	int n = cs.n ? ranked(&cs, k, f, M, N, t, mcap, NULL, out, 1, SETTLE_AS_RANKED) : 0;
	free(cs.v);
	return n;
}

void
choose_rkc(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t, Choice *out)
{
	int64_t mcap = m_cap(M, t);
	Cands cs = {0};
	enumerate(&cs, k, f, M, N, t, mcap, config_vec(k, f->dtype, N), 1);
	if (!cs.n) {
		out->cfg = fallback(N, t, config_vec(k, f->dtype, N));
		cost_model(f, &out->cfg, M, N, t, &out->cost);
		choice_reason(
		    out, "no config fits the budget; the smallest chunk at %d threads: %d regs",
		    t->max_threads_cta, out->cost.regs);
		return;
	}
	ranked(&cs, k, f, M, N, t, mcap, NULL, out, 1, SETTLE_NORMAL);
	free(cs.v);
}

/*
 * Batch-invariant mode (docs/heuristics.md, "Batch-invariant mode"). It lives here, in the rkc
 * policy, because it is the policy's own ranking (enumerate, better, explain, settle) run under
 * a constraint: over a ladder of M to fix the knobs that set a row's reduction order from N
 * alone, and once at the actual M over the knobs that do not.
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
	if (over_slots(x, f, t, M, N))
		return diag(e,
			    "a cooperative launch of %lld CTAs, over the %d an SM the target holds",
			    (long long)x->cost.ctas, x->cost.ctas_per_sm);
	rank_score(x, f, t, M, N);
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
		if (same_order(&all->v[i].c, o) && (!b || better(&all->v[i], b)))
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
		enumerate(&all[i], k, f, ladder[i], N, t, m_cap(ladder[i], t), vec, 0);
		best[i] = all[i].n ? best_cand(&all[i])->score : INFINITY;
	}
	if (!all[NLADDER - 1].n) {
		snprintf(why, n,
			 "batch-invariant order: no config fits the budget at M_REF=%d rows",
			 M_REF);
		for (int i = 0; i < NLADDER; i++)
			free(all[i].v);
		return fallback(N, t, vec);
	}
	/* the orders: M_REF's pick's first, then every other order a rung enumerates but
	 * cooperative rows. Their launch holds every CTA at once, so at many rows they run as a
	 * grid of bands, which the model ranks level with a CTA a row or better; measured on an
	 * H200 (bench/results/h200-2026-12-03-invariant-ladder.md) the norm backward kernels'
	 * bands at 1024-4096 rows ran 1.08-2.50x the time of M_REF's order. */
	int norder = 0, cap = 64;
	Config *order = malloc(sizeof *order * (size_t)cap);
	order[norder++] = best_cand(&all[NLADDER - 1])->c;
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
	enumerate(cs, k, f, M, N, t, m_cap(M, t), ref->vec, 0);
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
	int n = ranked(&cs, k, f, M, N, t, m_cap(M, t), first, out, max, SETTLE_INVARIANT);
	free(cs.v);
	return n;
}

int
choose_rkc_invariant(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
		     Choice *out, Diag *d)
{
	return rkc_invariant_candidates(k, f, M, N, t, out, 1, d) < 0 ? -1 : 0;
}
