/* Policy rkc's ranking: every config it offers, its modelled score, the ties, the rules dropping
 * some. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "heuristics/rkc.h"

/* A looped chunk past 64 elements a thread only adds registers: the round trips it saves are
 * already hidden by the other resident CTAs. */
#define MAX_CHUNK_PER_THREAD 64

/* The codegen unrolls a persistent thread's elements and refuses more than 512 (codegen/check.c);
 * a streamed reduction tail (long_sum) models few enough registers to get there. */
#define MAX_HELD_PER_THREAD 512

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

/* A grid larger than any target's resident CTAs: the cost model clamps it to what fits. */
#define GRID_PROBE (1 << 20)

const char *const rkc_aside_rules[NASIDE] = {
    "drop_kept_rows",	  "drop_ws_colsums",   "lone_own_colsums",   "drop_streamed_colsums",
    "drop_lone_clusters", "take_colpass_rows", "take_streamed_bands"};

int
rkc_dispatch_near(const Cost *o)
{
	return o->dispatch_us >= DISPATCH_NEAR * o->stream_us;
}

/* The ties' structural knobs, in order: 1 when a's is preferred, -1 when b's, 0 when they agree;
 * heavy (Cand.heavy) turns the row ahead's order round between configs of the same r_block. */
int
rkc_structure_tie(const Config *a, const Config *b, int heavy)
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
int
rkc_dispatch_tie(const Cand *a, const Cand *b)
{
	return a->cost.ctas != b->cost.ctas &&
	       (rkc_dispatch_near(&a->cost) || rkc_dispatch_near(&b->cost));
}

/* Whether the rows tie (rkc_better()) ranks configs like c: persistent rows, a CTA a row block. */
int
rkc_rows_tie(const Config *c)
{
	return c->persistent && c->grid == 0;
}

int
rkc_better(const Cand *a, const Cand *b)
{
	double ta = a->score, tb = b->score;
	if (ta < tb * (1 - TIE))
		return 1;
	if (tb < ta * (1 - TIE))
		return 0;
	int st = rkc_structure_tie(&a->c, &b->c, a->heavy);
	if (st)
		return st > 0;
	if (rkc_dispatch_tie(a, b))
		return a->cost.ctas < b->cost.ctas;
	if (a->c.r_block != b->c.r_block && !a->c.persistent)
		return a->c.r_block > b->c.r_block;
	/* the rows tie: a CTA retires, and its SM takes the next one, only once every row it holds
	 * is stored, so fewer rows a CTA refill the SMs in finer steps (a persistent grid's CTAs
	 * never retire, so not there); the model has no term for it. Measured on an H200 at the
	 * sm_90 picks it moves (bench/results/h200-2026-11-29-rows-tie.md): 75 picks 0.987x the
	 * time by geomean, 15 faster by 2-10%, 2 slower by 2.2-2.6%; the 76 batch-invariant ones
	 * 0.989x, 18 faster, 1 slower (3.4%). */
	if (rkc_rows_tie(&a->c) && a->c.m_block != b->c.m_block)
		return a->c.m_block < b->c.m_block;
	if (a->cost.regs != b->cost.regs)
		return a->cost.regs < b->cost.regs;
	return ta < tb;
}

/* The policy keeps an eighth of the register limit free: the model's estimate, not ptxas's
 * count, decides, and a config at the edge spills on a small error. */
int
rkc_within_budget(const Cost *o)
{
	return o->regs <= o->reg_limit - o->reg_limit / 8;
}

/* A lone CTA of one row of COLSUM_WARPS_SM warps, looped with sums over rows, where two CTAs an SM
 * would keep more rows in flight than the L2 holds: the lone CTA's rows read again come from the
 * L2, two CTAs' from HBM, a cliff the model's share of the L2 smooths over. Such a CTA is not
 * ranked down for occupancy. Measured on the H100 (bench/results/h100-2026-11-25-wide-bwd.md,
 * section 9): rms_norm_backward fp32 1024x28672 250.8 -> 163.6 us, 2048x28672 0.68x; without
 * the L2 condition bf16 picks ran 1.01-1.09x slower. */
int
rkc_lone_colsum(const Facts *f, const Config *c, int64_t N, const Target *t)
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
int
rkc_occupancy_ctas(const Facts *f, const Cost *o, const Config *c, const Target *t, int64_t M,
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
	int spare, k = rkc_occupancy_ctas(f, o, c, t, M, N, &spare);
	if (k < 0) /* at most a CTA an SM: a looped CTA's own warps are the SM's */
		return c->persistent ? 0 : few_warps(c->num_warps);
	int have = k * c->num_warps;
	if (N <= SHORT_ROW && have < MIN_WARPS_SM_SHORT)
		return OCCUPANCY;
	if (have < MIN_WARPS_SM)
		return k >= 2 ? few_warps(have) : OCCUPANCY;
	if (k >= 2)
		return 0;
	if (rkc_lone_colsum(f, c, N, t))
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
int
rkc_over_slots(const Cand *x, const Facts *f, const Target *t, int64_t M, int64_t N)
{
	int64_t slots = cost_slots(&x->c, t, x->cost.ctas_per_sm, M, NULL);
	return config_cooperative(&x->c, f->colsums, f->colsum_alone, N) &&
	       (x->cost.ctas > slots || x->c.grid > slots);
}

/* x's ranking score from its cost (x->c and x->cost set): the modelled time with the occupancy
 * penalties, GRID_COST and SHORT_ROW_SERIAL. */
void
rkc_rank_score(Cand *x, const Facts *f, const Target *t, int64_t M, int64_t N)
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
	if (!rkc_within_budget(&x.cost) || (c->ahead == 1 && x.cost.reg_limit <= AHEAD_MIN_REGS))
		return;
	if (rkc_over_slots(&x, f, t, M, N))
		return;
	rkc_rank_score(&x, f, t, M, N);
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
	return !rkc_within_budget(&o);
}

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

/* A lone band walks its rows one after another, each row's exchange holding every CTA of the
 * launch, which the model charges too little; two bands or more overlap one's exchange with the
 * other's stream. */
#define ROW_BANDS_MIN 2

/* Bands walking the rows of a kernel without sums over rows (BAND_ROWS): a looped row cut over
 * cooperating CTAs whose later passes read it again (Facts.kept_bytes), at more rows than such
 * cuts of the SMs hold at once. A cut of every row at once (one wave) keeps M rows in flight, and
 * where their bytes pass the L2 the later passes read them from HBM again (the cost model's
 * reread_hit); B bands of K CTAs (band_cuts) keep B rows in flight, read again from L2, or
 * from shared memory where each CTA keeps its segment (smem=1). */
static int
band_rows(const Facts *f, const Config *c, int64_t M, const Target *t)
{
	return !f->colsums && f->kept_bytes > 0 && c->coop && c->cluster > 1 && !c->persistent &&
	       M * c->cluster > (int64_t)t->sms * 2;
}

/* Whether the bands of grid c (band_rows) may stream their rows (smem=0), and what they then
 * hold (*h, where not NULL). Their later passes read the rows again from the L2, so the rows in
 * flight, one a band, and the outputs they write, which pass the L2 too, fit it. And a
 * cooperative launch keeps every CTA of the grid resident, so the CTAs it puts on an SM bind
 * ptxas (min_ctas): a thread's chunk, the words of its [M,N] inputs that a pass loads at once,
 * stays under the registers that leaves it. Measured on an H100, each against the pick it
 * replaced (bench/results/h100-2026-12-07-streamed-bands.md): streamed bands at the 7 golden
 * points of 4194304 columns the model ranks them first at ran 0.75-0.82x where they fit the L2
 * (40 to 50 MB) and 0.85-1.09x where they do not (64 to 101 MB); at 14 points of the class drawn
 * at random 0.72-0.96x, but 1.85x where a chunk of 128 words met the 128 registers of two CTAs
 * an SM and ptxas spilled 400 bytes (cov_corr fp32 9x2759827), as four bands of 66 CTAs did at
 * 32 words and 32 registers (dynamic_quant fp32 64x4194304: 128 bytes, 1.44x). With both
 * conditions: 0.832x by geomean at 27 points (3 golden, 24 drawn in two draws), 0.66-0.96x.
 * All were under the SMs' 132 rows; add_grids offers streamed bands there only. Bands that keep
 * their segments in shared memory (smem=1) hold them on chip and were measured so
 * (h100-2026-12-07-bands.md). */
int
rkc_band_streams(const Facts *f, const Config *c, int64_t N, const Target *t, BandHold *h)
{
	BandHold x;
	h = h ? h : &x;
	h->per_sm = (int)cdiv(c->grid, t->sms);
	h->regs = target_reg_limit(t, 32 * c->num_warps, h->per_sm);
	h->words = c->r_block / config_tpr(c) * f->tile_in_bytes / 4;
	h->bytes = (double)(c->grid / c->cluster) * N * (f->tile_in_bytes + f->tile_out_bytes);
	h->l2 = (double)t->l2_bytes;
	return h->words < h->regs && h->bytes <= h->l2;
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
int
rkc_band_grid_fits(const Facts *f, const Config *c, int64_t M, int64_t N, const Target *t,
		   int64_t *row_bytes)
{
	if (!f->colsums) {
		if (row_bytes)
			*row_bytes = N * f->tile_in_bytes;
		return band_rows(f, c, M, t) ? BAND_ROWS : BAND_NO;
	}
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
int64_t
rkc_ring_blocks(const Config *g, int64_t M)
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
	return !rkc_within_budget(&o) || o.reg_limit <= AHEAD_MIN_REGS;
}

/* The column pass over whole rows where a colsum needs a row reduction (colpass_rows): grid g
 * is a looped whole row (no segments) whose rows start aligned for 4 columns an access
 * (colpass_wide), the row blocks fill the SMs, and a whole row's partials at one row group pass a
 * CTA's shared memory (ws_colsums), so that no whole row keeps them on chip: the class where
 * band_grid_fits offers bands (BAND_PARTIALS), which stream their rows at a third of copy
 * bandwidth (bench/results/h200-2026-12-02-heldout4.md). The rows there read their row once for
 * its reductions and write the row values; the column pass reads the colsums' inputs again, at
 * full rate. take_colpass_rows keeps it alone wherever it is offered. */
const char *
rkc_colpass_rows_miss(char *buf, size_t n, const Facts *f, const Config *g, int64_t M, int64_t N,
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
	return f->colsums && !f->colsum_alone &&
	       !rkc_colpass_rows_miss(why, sizeof why, f, g, M, N, t);
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
int
rkc_colpass_offered(const Facts *f, const Config *g, int64_t M, int64_t N, const Target *t)
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
	if (config_segments(c) > 1 && !rkc_band_grid_fits(f, c, M, N, t, NULL))
		return;
	/* a sum over rows takes a static grid, whatever the rows (it is the only mode it has); a
	 * persistent row's partials may go to shared memory (colsum_smem), a looped row's always do
	 */
	int colsum = k->plan->ncolsum > 0;
	int aheads = c->persistent && config_rows_aligned(c, N) ? RING_AHEAD : 0;
	for (int ahead = 0; ahead <= aheads; ahead++)
		for (int dyn = 0; dyn <= (!colsum && config_segments(c) == 1); dyn++)
			for (int sm = c->smem; sm <= (colsum && c->persistent ? 1 : c->smem); sm++)
				for (int cp = 0; cp <= rkc_colpass_offered(f, c, M, N, t); cp++) {
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
					if (g.grid >= cdiv(M, c->m_block) * config_segments(&g) &&
					    !colsum)
						continue;
					if (band_rows(f, &g, M, t) &&
					    (g.grid < ROW_BANDS_MIN * g.cluster ||
					     (M >= t->sms && g.grid < 2 * t->sms) ||
					     (!g.smem && (M >= t->sms ||
							  !rkc_band_streams(f, &g, N, t, NULL)))))
						continue;
					if (ahead >= 2 && rkc_ring_blocks(&g, M) < RING_MIN_BLOCKS)
						continue;
					add(cs, k, f, &g, M, N, t);
				}
}

/* The ways to cut a row into segments: split s (through the workspace, where the plan allows) or
 * a cluster of c CTAs (where the target has clusters); at most one over 1. Whether a cluster may
 * cut a given config is cluster_fits'. */
typedef struct {
	int split, cluster, coop, band;
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

/* The bands' cuts (band_rows): B bands, the most (a power of two under M) whose rows' bytes fit
 * half the L2 (the share the cost model's reread_hit counts as held), or 1; K = j * SMs / B CTAs
 * a band for j = 1 and 2 CTAs an SM. rkc_enumerate offers them with the rows kept in shared
 * memory, and streamed (smem=0) at fewer rows than SMs where the L2 and the registers hold what
 * they need (rkc_band_streams; not measured at more). At more rows than SMs, only where a row
 * kept over
 * the largest cluster would still crowd an SM (rkc_kept_row_crowds_sm: no cluster keeps it at
 * two CTAs an SM), with two CTAs an SM or more (add_grids), and not in the batch-invariant mode
 * (not normal), which fixes its order at M_REF rows: offered at any row there, the bands ran
 * 0.834x where the old pick read the row again and 1.056x where it kept the row over a cluster,
 * whose exchange through distributed shared memory costs less than a band's through global
 * memory; kept at one CTA an SM, 1.20-1.25x at all three points forced
 * (bench/results/h200-2026-12-07-wide-bands.md, sections 2 and 3). */
static int
band_cuts(Cut *out, int n, const Facts *f, int64_t M, int64_t N, const Target *t, int normal)
{
	if (f->colsums || f->kept_bytes <= 0 || f->split_ok)
		return n;
	if (M >= t->sms && !(normal && t->cluster_max > 1 &&
			     rkc_kept_row_crowds_sm(f, cdiv(N, t->cluster_max), t)))
		return n;
	int64_t row = N * f->tile_in_bytes, B = 1;
	while (2 * B < M && 2 * B * row <= t->l2_bytes / 2)
		B *= 2;
	for (int j = 1; j <= 2; j++) {
		int64_t K = j * t->sms / B;
		if (K > 1 && K <= MAX_COOP) /* add_grids keeps those band_rows takes */
			out[n++] = (Cut){1, (int)K, 1, 1};
	}
	return n;
}

static int
cuts(Cut *out, const Facts *f, int64_t M, int64_t N, int vec, const Target *t, int normal)
{
	int n = 0;
	out[n++] = (Cut){1, 1, 0, 0};
	if (f->split_ok)
		for (int s = 2; s <= 1024 && M * s <= 16 * t->sms; s *= 2)
			out[n++] = (Cut){s, 1, 0, 0};
	/* powers of two: clusters of 3 to 15 CTAs ran 1.03-1.55x the time of the pick at 20
	 * kept-row points (bench/results/h200-2026-12-02-cluster-sizes.md) */
	for (int c = 2; c <= t->cluster_max; c *= 2)
		out[n++] = (Cut){1, c, 0, 0};
	int most = t->cluster_max > 1 ? t->cluster_max : 1;
	n = band_cuts(out, n, f, M, N, t, normal);
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
		out[n++] = (Cut){1, (int)fill, 1, 0};
	for (int j = 1, last = few ? most : 1; j <= 1 << (COOP_SPREADS - 1); j *= 2) {
		int64_t K = (int64_t)j * t->sms / M;
		if (K > last && K <= MAX_COOP)
			out[n++] = (Cut){1, (int)(last = (int)K), 1, 0};
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
int
rkc_kept_row_crowds_sm(const Facts *f, int64_t N, const Target *t)
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
	       rkc_band_grid_fits(f, c, M, N, t, NULL) == BAND_PARTIALS;
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
	return c->smem && rkc_kept_row_crowds_sm(f, N, t);
}

/* Rule r dropped x: keep it where it is the best the rule dropped so far. */
static void
set_aside(Cands *cs, int r, const Cand *x)
{
	if (!cs->aside[r].c.num_warps || rkc_better(x, &cs->aside[r]))
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

/* Whether config c is the whole column pass storing [M,N] outputs element by element (rows that
 * start misaligned: colpass_split) over COLPASS_STREAM_ROWS rows or more, which
 * drop_streamed_colsums sets aside where rows stream. Each turn of such a pass walks every row on a
 * strip of it that starts and ends inside 32-byte sectors, so the sectors at a strip's edges are
 * read again by the next turn and written in part by each, after the L2 has let them go: ncu of
 * bias_silu_back fp32 2000x20011 (5 turns) on an H200 counted 554 MB read from HBM for 320 MB of
 * inputs and 192 MB written for 160 (the same pass at 2000x20000, 16-byte accesses: 320 and 147).
 * On an H100, the best streamed candidate set aside against the column pass at 18 points of four
 * such kernels (bias_gelu_back, bias_silu_back, tests/codegen/colpass_whole.rk and a dropout
 * mask's gradient, 1000 to 4096 rows of 20011 to 50257 columns, bf16 and fp32) ran 0.645x the time
 * by geomean, 16 faster by over 2%, 2 slower (bias_silu_back and bias_gelu_back fp32 2000x50257
 * 1.10-1.12x, one CTA an SM of 16 warps there); at 16-byte accesses the column pass stays (11
 * points, the streamed rows 1.19x), as where it stores nothing but its colsums
 * (bench/results/h100-2026-12-05-colpass-turns.md, call 1). Fewer rows carry the streamed rows'
 * partial rows, one a CTA of the grid, written and read again, against fewer rows of the inputs:
 * at 256 rows 5 points ran 0.552-1.025x, and two on record at 256 and 300 rows 1.85-1.92x
 * (colpass_whole.rk bf16 256x28673, bias_gelu_back fp32 300x30011, bench/replay.py), so the
 * column pass stays there. */
#define COLPASS_STREAM_ROWS 1000
static int
split_colpass(const Facts *f, const Config *c, int64_t M, int64_t N)
{
	return M >= COLPASS_STREAM_ROWS && colpass_whole(f->colsum_whole, c) &&
	       colpass_split(f->colpass_stores, c, N);
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
 * bench/results/h200-2026-12-01-set-aside.md).
 * But the whole column pass that stores [M,N] outputs element by element (colpass_split: rows
 * that start misaligned) over COLPASS_STREAM_ROWS rows or more goes aside where no other
 * persistent row fits and rows stream (split_colpass); not in the batch-invariant mode (not
 * normal), whose order may not follow M. */
static void
drop_streamed_colsums(Cands *cs, const Facts *f, int64_t M, int64_t N, int normal)
{
	int held = 0, kept = 0, split = 0, streamed = 0;
	for (int i = 0; i < cs->n; i++) {
		const Cand *x = &cs->v[i];
		if (normal && split_colpass(f, &x->c, M, N)) {
			split = 1;
			continue;
		}
		held |= x->c.persistent;
		kept |= kept_full(x);
		streamed |= !x->c.persistent && !colpass_whole(f->colsum_whole, &x->c);
	}
	split = split && !held && (kept || streamed);
	if (!f->colsums || (!held && !kept && !split))
		return;
	int n = 0;
	for (int i = 0; i < cs->n; i++) {
		const Cand *x = &cs->v[i];
		if (split && split_colpass(f, &x->c, M, N))
			set_aside(cs, ASIDE_STREAMED, x);
		/* made whole in the column pass, its rows stream nothing */
		else if (colpass_whole(f->colsum_whole, &x->c) || (!held && !kept) ||
			 (held ? x->c.persistent : kept_full(x)))
			cs->v[n++] = *x;
		else {
			set_aside(cs, ASIDE_STREAMED, x);
			if (!held && !x->c.smem &&
			    (!cs->reread.c.num_warps || rkc_better(x, &cs->reread)))
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
int
rkc_kept_reads_back(const Facts *f)
{
	for (int p = 1; p < f->passes && p < MAX_PASSES; p++)
		if (f->pass_tile_bytes[p] > f->kept_bytes)
			return 1;
	return 0;
}

static void
drop_lone_clusters(Cands *cs, const Facts *f, int64_t M, const Target *t)
{
	if (M < t->sms || rkc_kept_reads_back(f))
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

/* The best of cs's candidates (cs->n > 0), as rkc_better() ranks them. */
const Cand *
rkc_best_cand(const Cands *cs)
{
	const Cand *b = &cs->v[0];
	for (int i = 1; i < cs->n; i++)
		if (rkc_better(&cs->v[i], b))
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
	const Cand *b = rkc_best_cand(cs);
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
void
rkc_enumerate(Cands *cs, const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
	      int64_t mcap, int vec, int normal)
{
	Cut cut[16];
	int ncut = cuts(cut, f, M, N, vec, t, normal);
	for (int ci = 0; ci < ncut; ci++) {
		int split = cut[ci].split, cluster = cut[ci].cluster, segs = split * cluster;
		int coop = cut[ci].coop, band = cut[ci].band;
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
				if (!band && c.r_block / config_tpr(&c) <= MAX_HELD_PER_THREAD &&
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
					 * (docs/heuristics.md, "Two fills"). A band streams its
					 * rows (smem=0) or keeps them; add_grids holds the
					 * streamed ones to rkc_band_streams */
					for (c.smem = 0; c.smem <= (f->kept_bytes > 0); c.smem++)
						if (band && w >= MIN_CLUSTER_WARPS)
							add_grids(cs, k, f, &c, M, N, t);
						else if (!band && cluster_fits(&c, f, M, N, t)) {
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
	drop_streamed_colsums(cs, f, M, N, normal);
	if (normal) {
		drop_lone_clusters(cs, f, M, t);
		odd_warps(cs, k, f, M, N, t, vec);
	}
}

/* The bytes of config c's slots: ncolsum x slots partial rows of N floats. */
double
rkc_own_slot_bytes(const Facts *f, const Config *c, int64_t N)
{
	ColsumLayout cl;
	colsum_layout(c, f->colsums, N, &cl);
	return (double)f->colsums * cl.slots * cl.row_bytes;
}

/* Where config c's colsums take their own pass (colsum_late) and the column pass on the same
 * rows (*g) reads 4 columns an access and can be emitted: 1 where the own pass's slots are
 * 1/COLPASS_SLOTS of the inputs both read again or more, or the model puts that column pass
 * (*cp) under the own pass (*own): settle_colpass's case; else 0 (both modelled); -1 where it
 * does not apply. */
int
rkc_colpass_settles(const Kernel *k, const Facts *f, const Config *c, int64_t M, int64_t N,
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
	return COLPASS_SLOTS * rkc_own_slot_bytes(f, c, N) >=
		   (double)M * N * f->colsum_tile_bytes ||
	       cp->us < own->us;
}

/* Whether ptxas can fit a thread of capped registers under min_ctas = k: within its cap at k (the
 * register file over the k CTAs' threads is never below it). No headroom for the model's error:
 * an eighth of that share kept free bound 71 sm_90 picks one CTA lower where ptxas fits the
 * higher count (at most 40 bytes of spills, one of them); on the H100 the higher count ran 0.975x
 * the time by geomean over them, 11 faster by 2-30% (welford bf16 8192x14336 213.3 -> 155.8 us,
 * gelu_tanh_gated bf16 4096x16384 234.3 -> 164.2), 2 slower by 2.5%
 * (bench/results/h100-2026-11-24-tree.md, section 6). */
int
rkc_min_ctas_fits(const Target *t, int threads, int k, int capped)
{
	return capped <= target_reg_limit(t, threads, k);
}

/* Whether ptxas's cap at k CTAs an SM is over a SQUEEZE_MAX-th under the predicted regs. */
int
rkc_over_squeezed(const Target *t, int threads, int k, int regs)
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
	while (k > 1 && !(coop && k <= waves) && !rkc_min_ctas_fits(t, threads, k, o->capped))
		k--;
	while (k > 1 && !(coop && k <= waves) && rkc_over_squeezed(t, threads, k, o->regs))
		k--;
	return k > 1 ? k : 1;
}
