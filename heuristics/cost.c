/* Cost: registers, occupancy, bytes moved and the modelled time of one config on one shape. */
#include <math.h>

#include "heuristics/heuristics.h"

/*
 * The model, in full (docs/heuristics.md walks through it):
 * - bytes: every [M,N] input once from HBM, [N] inputs once from HBM and once per CTA and pass
 *   from L2 (once per resident CTA slot when half the L1 holds them: later CTAs on the SM hit
 *   L1), [M] inputs and outputs, [M,N] outputs. Looped passes after the first re-read their
 *   loads; the share of that re-read the L2 can keep (half the L2 over the rows in flight)
 *   comes from L2, the rest from HBM again.
 * - a CTA's latency: one DRAM round trip per chunk per pass (persistent: one in all), a
 *   cross-thread reduction per dependent level (log2(lanes) shuffles, and a barrier when the row
 *   spans warps), and a fixed start/store/retire time.
 * - Little's law: k resident CTAs offer r = k * bytes-per-CTA / latency; the HBM delivers
 *   BW * (1 - exp(-r / BW)), so it saturates smoothly and more bytes in flight always help a
 *   little. Full waves run with k = the resident slots, the last partial wave with fewer.
 * - a spilling config moves its spilled words through L2: stored once, loaded once per pass.
 * - rows kept on chip (smem=1): no re-read bytes; later passes wait on shared memory; shared
 *   memory bounds the resident CTAs. A cluster: whole clusters are resident, and each dependent
 *   reduction level adds an exchange of partials (cluster_ns); a cooperative row block
 *   (coop=1) fills any slot (the policy keeps its grid to one wave) and its exchange goes
 *   through L2 (coop_ns).
 * - a persistent grid (grid > 0): min(grid, row blocks) CTAs, all resident, each walking
 *   cdiv(blocks, CTAs) row blocks (dynamic: each block also waits a ticket round trip); its
 *   start and retirement once per CTA, not per block; persistent rows that start aligned hold
 *   the [N] inputs across blocks (read once per CTA, held in registers) and under ahead=1 also
 *   the next block's [M,N] loads: two blocks in flight a CTA.
 * - a row whose threads cover less than a 32-byte sector per warp access (one thread a row at
 *   16 bytes) moves each sector twice: its [M,N] bytes count 32 / span times (measured on the
 *   H100: layer_norm f32 1048576x32 at one thread a row ran 1.84x the time of four); exactly a
 *   sector, on rows of a line or more, makes each L2 request carry one sector: ONE_SECTOR times.
 * - sums over rows (colsum): each CTA's row groups write a partial row to L2 (one a CTA under
 *   the pre-sum, whose two barriers and shared-memory round trips join the tail), then every CTA
 *   waits for all and sums a slice of the columns over all partial rows (lower_colsum.c). Their
 *   bytes go through L2 as far as half the L2 holds them, through HBM past that; the tail is
 *   the slice's round trips (its slots over the row lanes, its positions over the lanes of a
 *   row: colsum_unroll), two arrivals and two barriers a turn (the tree's further levels, a
 *   barrier each, are not counted). Partials kept in the slots (ws_colsums) are loaded and
 *   stored by every row: from L2 as far as half the L2 holds the slots, from HBM past that;
 *   where the colsums have a pass of their own (colsum_late), that pass reads their [M,N]
 *   inputs again from HBM instead (its round trips are not counted).
 * - the CTAs' start: the hardware starts them dispatch_ns apart, so the memory time is at least
 *   their dispatch and the last one's latency.
 * - a split row: each CTA's exit waits for its partials' fence and the row counter's atomic, a
 *   round trip and a barrier in its latency; the last CTA's merge is a term of the time.
 * - short rows (SHORT_ROW) without sums over rows: the memory time is at least the issue term,
 *   every warp's element slots at the instructions an element and a fitted cost a row block
 *   (issue_us; heuristics.h has the fit).
 * - time = memory time + L2 time + launch (+ the split combine, the colsum tail).
 */
/* A DRAM sector: the unit HBM and L2 move; a line: the unit of one request to L2. */
#define SECTOR 32
#define LINE 128
/* The bytes of a warp access whose row parts are one sector each, in lines of their own, count
 * ONE_SECTOR times. Measured on the H200 (bench/results/h200-2026-12-02-tiny-rows.md): at 23
 * short-row picks of 32 bytes a request (fp32 rows of 32-48 columns and bf16 rows of 64-96
 * columns, over 2 threads a row), the same config over twice the threads a row (64 bytes a
 * request) ran 0.924x the time by geomean, 21 faster by over 2%; from 64 bytes a request to 128
 * it ran 1.026x (136 points). ncu at dynamic_quant fp32 1048576x32: Mem Busy (the memory units')
 * 80% against 61%, at the same bytes. */
#define ONE_SECTOR 1.08
/* A segment's [N] inputs are read from L2 once per resident CTA slot, not once per CTA, when
 * they fit the L1 over L1_SHARE. At a quarter, long rows at 128K-256K columns paid a re-read per
 * CTA of 16-CTA cluster segments (128 KB of fp32 weights), 3 GB of L2 bytes and 450 us in the
 * model at welford fp32 1536x256000, so the policy cut the rows otherwise. At a half, measured
 * on the H100 at the 32 sm_90 picks it moved (bench/results/h100-2026-11-24-row-ahead.md,
 * section 6): 0.926x the time by geomean without two batch-invariant points 14-24x faster, 22
 * faster, 5 slower by 2-10% (gated_rmsnorm and rms_norm fp32 at 201088 columns). */
#define L1_SHARE 2

int64_t
issue_slots(const Config *c, int64_t N)
{
	int64_t seg = cdiv(N, config_segments(c));
	return (c->persistent ? c->r_block : cdiv(seg, c->r_block) * c->r_block) / config_tpr(c);
}

static double
issue_us(const Facts *f, const Config *c, int64_t M, int64_t N, const Target *t)
{
	/* a slot's instructions and its address: a looped row's passes each run their own */
	double slot = (t->fp8_cvt ? f->issue_ops : f->ops) + 1;
	if (!c->persistent) {
		slot = 0;
		for (int p = 0; p < f->passes && p < MAX_PASSES; p++)
			slot += (t->fp8_cvt ? f->pass_issue_ops[p] : f->pass_ops[p]) + 1;
	}
	double warp_blocks = (double)cdiv(M, c->m_block) * config_segments(c) * c->num_warps;
	return warp_blocks * ((double)issue_slots(c, N) * slot + BLOCK_OPS) /
	       ((double)t->sub_partitions * t->sms * t->issue_ghz * 1e3);
}

/* CTAs an SM at regs registers a thread (allocated by 8): the fewest the threads, the registers,
 * the CTA cap and the config's shared memory allow; *limit names the bound that binds. */
int
cost_occupancy(const Facts *f, const Config *c, int64_t N, const Target *t, int regs,
	       const char **limit)
{
	int threads = 32 * c->num_warps, tpr = config_tpr(c), segs = config_segments(c);
	int kept = c->smem && !c->persistent;
	int64_t seg = cdiv(N, segs);
	int alloc = (regs + 7) / 8 * 8;
	int by_threads = t->max_threads_sm / threads;
	int by_regs = t->regs_per_sm / (alloc * threads);
	int ctas = by_threads < by_regs ? by_threads : by_regs;
	ctas = ctas < t->max_ctas_sm ? ctas : t->max_ctas_sm;
	*limit = ctas * threads >= t->max_threads_sm ? "threads"
		 : ctas == t->max_ctas_sm	     ? "the CTA cap"
						     : "registers";
	/* shared memory: the rows kept on chip or in flight (heuristics/smem.c has the exact
	 * layout) and the partials, plus the 1 KiB a CTA the hardware reserves */
	int64_t dyn = (kept ? (int64_t)c->m_block * seg * config_kept_bytes(f, c) : 0) +
		      smem_ring_bytes(c, f->tile_in_bytes) + smem_colsum_bytes(f->colsums, c, N);
	int64_t combine = smem_combine_bytes(f->colsums, f->colsum_alone, c, N);
	if (dyn < combine)
		dyn = combine;
	if (dyn < smem_presum_bytes(f->colsums, c, N))
		dyn = smem_presum_bytes(f->colsums, c, N);
	int64_t smem = dyn + (int64_t)f->red_results * 4 *
				 ((tpr > 32 ? c->num_warps : 0) +
				  (segs > 1 && c->cluster > 1 ? c->m_block : 0));
	if (smem > 0) {
		int by_smem = (int)(t->smem_per_sm / (smem + 1024));
		by_smem = by_smem > 1 ? by_smem : 1;
		if (by_smem < ctas) {
			ctas = by_smem;
			*limit = "shared memory";
		}
	}
	return ctas;
}

int64_t
cost_slots(const Config *c, const Target *t, int per_sm, int64_t M, const char **by)
{
	int64_t slots = (int64_t)t->sms * per_sm;
	const char *how = "over the SMs";
	if (c->cluster > 1 && !c->coop) {
		if (c->cluster <= 2 || !t->ngpc) /* clusters of 2 pack as the pool does */
			slots = slots / c->cluster * c->cluster;
		else {
			slots = 0;
			for (int g = 0; g < t->ngpc; g++)
				slots += (int64_t)t->gpc_sms[g] * per_sm / c->cluster * c->cluster;
			how = "GPC by GPC";
		}
		/* the driver's count, where it is under that and the rows fill the SMs: see
		 * cost_model */
		if (c->cluster <= 16 && per_sm >= 1 && per_sm <= t->ncluster_ctas[c->cluster] &&
		    t->cluster_ctas[c->cluster][per_sm - 1] < slots &&
		    cdiv(M, c->m_block) >= t->sms) {
			slots = t->cluster_ctas[c->cluster][per_sm - 1];
			how = "as the driver holds them";
		}
	}
	if (by)
		*by = how;
	return slots;
}

/* The facts the register model counts for c: under steps=1 a persistent row's tail holds a
 * vector of what it makes and reads first, not the row's (Facts.held_bytes_steps). */
static const Facts *
steps_facts(const Facts *f, const Config *c, Facts *tmp)
{
	if (!c->steps)
		return f;
	*tmp = *f;
	tmp->held_bytes = f->held_bytes_steps;
	tmp->held_spare = f->held_spare_steps;
	return tmp;
}

/* The bytes an element the column pass reads (colpass_words). */
static int
colpass_in_bytes(const Facts *f, const Config *c)
{
	return colpass_whole(f->colsum_whole, c) ? f->tile_in_bytes : f->colsum_tile_bytes;
}

int
colpass_min_pos(const Facts *f, const Config *c, int64_t N)
{
	return f->tile_out_bytes || !colpass_wide(c, N) ? COLPASS_MIN_POS : 1;
}

int
colpass_words(const Facts *f, const Config *c, int64_t N)
{
	if (colpass_split(f->colpass_stores, c, N))
		return f->colpass_words;
	return colpass_in_bytes(f, c) + 2;
}

void
colpass_lanes_of(const Facts *f, const Config *c, int64_t M, int64_t N, int64_t grid, int ctas,
		 ColpassLanes *ln)
{
	colpass_lanes(colpass_slice(N, grid, f->colpass_arrays.isz), M, 32 * c->num_warps, ctas,
		      colpass_words(f, c, N), f->colpass_arrays.isz, colpass_wide(c, N),
		      &f->colpass_arrays, ln, NULL);
}

void
colpass_lanes_run(const Kernel *k, const Facts *f, const Config *c, int64_t M, int64_t N,
		  const Target *t, ColpassLanes *ln, ColpassTried *tried)
{
	Cost o;
	cost_model(f, c, M, N, t, &o);
	int words =
	    plan_colpass_row_words(k->plan, k, f->dtype, colpass_split(f->colpass_stores, c, N));
	colpass_lanes(colpass_slice(N, o.ctas, f->colpass_arrays.isz), M, 32 * c->num_warps,
		      c->min_ctas, words, f->colpass_arrays.isz, colpass_wide(c, N),
		      &f->colpass_arrays, ln, tried);
}

/* The CTAs an SM whose registers the sums over rows' slices take after the rows (the column
 * pass's rows a trip and the combine's round trips, colpass_lanes and colsum_unroll, which codegen
 * sizes by min_ctas): min_ctas where it is bound, else the CTAs an SM the model plans, at most the
 * CTAs over the SMs, which rkc_min_ctas binds after the ranking. Priced at one CTA an SM while
 * codegen took the three bound, rms_colsum bf16 4096x131072's column pass was ranked at 8 rows a
 * trip over 32 lanes and ran 1 row a trip over 4 (bench/results/h100-2026-12-05-colsum-ctas.md). */
int
colsum_ctas(const Config *c, const Cost *o, const Target *t)
{
	int64_t waves = cdiv(o->ctas, t->sms);
	int64_t k = o->ctas_per_sm < waves ? o->ctas_per_sm : waves;
	return c->min_ctas > 1 ? c->min_ctas : k > 1 ? (int)k : 1;
}

/* What cost_model's stages share about a config: its shape, set once (cost_derive), and what
 * one stage hands the next. */
typedef struct {
	int tpr, threads, segs;
	int64_t seg, ept, row_ctas;
	int kept;    /* later passes read shared memory, not L2/HBM */
	int held;    /* a persistent grid holds the [N] inputs (and the next block) across blocks */
	int one;     /* the sums over rows in one slot (colsum_one_slot) */
	int lanes;   /* a row's lanes of a warp */
	int whole;   /* the column pass makes the whole kernel (colpass_whole) */
	int rows_cp; /* the column pass reads row values: a looped row whose apply pass carries
		      * only colsums skips it (colpass_rows) */
	int passes;  /* the passes over the row */
	int64_t slots;	/* cost_grid: the CTAs resident at once */
	double blocks;	/* cost_grid: row blocks a CTA of a persistent grid walks (1 without one) */
	double tail_ns; /* cost_bytes: the tail after the rows, the combine or the column pass */
	double cp_hbm;	/* cost_bytes: the column pass's HBM bytes, streamed in its round trips */
} Stage;

static void
cost_derive(const Facts *f, const Config *c, int64_t M, int64_t N, Stage *d)
{
	d->tpr = config_tpr(c);
	d->threads = 32 * c->num_warps;
	d->segs = config_segments(c);
	d->seg = cdiv(N, d->segs);
	d->ept = c->r_block / d->tpr;
	d->row_ctas = cdiv(M, c->m_block);
	d->kept = c->smem && !c->persistent;
	d->held = config_grid_holds(c, N);
	d->one = colsum_one_slot(f->colsums, f->colsum_alone, c, N);
	d->lanes = d->tpr < 32 ? d->tpr : 32;
	d->whole = colpass_whole(f->colsum_whole, c);
	d->rows_cp = colpass_rows(f->colsums, f->colsum_alone, c);
	d->passes = c->persistent ? 1 : d->rows_cp ? f->colpass_passes : f->passes;
}

/* The registers: predicted, capped, the combine's floor under both, and whether it spills. */
static void
cost_regs(const Facts *f, const Config *c, int64_t M, int64_t N, const Target *t, const Stage *d,
	  Cost *o)
{
	int tpr = d->tpr, threads = d->threads, held = d->held, one = d->one;
	int64_t ept = d->ept;
	int extra =
	    held ? (int)cdiv(ept * (f->vec_in_bytes + (c->ahead == 1 ? f->tile_in_bytes : 0)), 4)
		 : 0;
	/* a grid of clusters holds the cluster's remote addresses through its rows: LLVM hoists
	 * each CTA's mapa (64 bits) out of the grid's loop (docs/regmodel.md) */
	o->remote_regs = config_cluster_grid(c) ? 2 * c->cluster : 0;
	extra += o->remote_regs;
	/* a persistent row that starts misaligned also holds its head and tail */
	o->edge_regs =
	    c->persistent && !config_rows_aligned(c, N) ? regs_edge(f, ept, c->vec, tpr) : 0;
	extra += o->edge_regs;
	o->regs = regs_predict(f, c->persistent, ept, c->vec) + extra;
	o->live_bytes = live_bytes_thread(f, c->persistent, ept, c->vec) + 4 * extra;
	/* min_ctas CTAs must fit the register file */
	o->reg_limit = target_reg_limit(t, threads, c->min_ctas);
	/* over the limit, ptxas squeezes the thread under it when the capped count fits */
	o->capped = regs_capped(f, c->persistent, ept, c->vec) + extra;
	if (colpass_whole(f->colsum_whole, c)) {
		/* the rows make nothing: the column pass's u rows of words and 4 sums a colsum */
		ColpassLanes ln;
		int w = colpass_words(f, c, N);
		colpass_lanes_of(f, c, M, N, c->grid, c->min_ctas, &ln);
		o->regs = o->capped = COLPASS_BASE_REGS + (int)ln.u * w + 4 * f->colsums;
		o->live_bytes = 4 * o->regs;
	}
	/* the combine of sums over rows, after the rows: a floor under both counts */
	o->combine_regs = 0;
	if (f->colsums && c->grid > 0 && !one && !c->colpass) {
		int64_t ctas = cdiv(M, c->m_block);
		int u, per;
		ColsumLayout cl;
		ColsumSlices sl;
		colsum_layout(c, f->colsums, N, &cl);
		colsum_slices(&cl, c, f->colsums, ctas < c->grid ? ctas : c->grid, &sl);
		colsum_unroll(cdiv(sl.rows, threads / sl.lanes), cdiv(sl.vectors, sl.lanes),
			      threads, c->min_ctas, &u, &per);
		/* past the thread's limit ptxas squeezes the combine under it, where its capped
		 * count fits: colsum_unroll sized the round trip so */
		int cc = regs_combine(u * per, per, 1);
		o->combine_regs = regs_combine(u * per, per, 0);
		if (o->combine_regs > o->reg_limit)
			o->combine_regs = cc;
		o->regs = o->regs > o->combine_regs ? o->regs : o->combine_regs;
		o->capped = o->capped > cc ? o->capped : cc;
	}
	o->spills = o->capped > o->reg_limit;
}

/* The CTAs: resident an SM, launched, the slots that hold them at once and the waves. */
static void
cost_grid(const Facts *f, const Config *c, int64_t M, int64_t N, const Target *t, Stage *d, Cost *o)
{
	int segs = d->segs;
	int64_t row_ctas = d->row_ctas;
	o->ctas_per_sm =
	    cost_occupancy(f, c, N, t, o->regs < o->reg_limit ? o->regs : o->reg_limit, &o->limit);

	o->ctas = row_ctas * segs;
	int64_t slots = (int64_t)t->sms * o->ctas_per_sm;
	/* a cluster's CTAs are resident together, in one GPC: only whole clusters fill the slots,
	 * counted GPC by GPC where the target lists them. cuOccupancyMaxActiveClusters on the H200
	 * at 2 CTAs an SM: 132, 62, 30 and 14 clusters of 2, 4, 8 and 16, so 264 to 224 CTAs where
	 * the SMs as one pool hold 264 to 256; at 1 CTA an SM: 66, 30, 15 and 7 (these GPCs give
	 * 62, 30, 14 and 6). Clusters of 2 pack as the pool does at both, so they are counted over
	 * the SMs. For grids of several waves, measured on the H200 old picks against new
	 * (bench/results/h200-2026-11-28-stash.md): the 24 sm_90 picks it moved 0.879x the time by
	 * geomean, fused_linear_jsd's rows of 32000-131072 columns from 16-CTA clusters to 2-4
	 * 0.74-0.77x; 4 slower by over 2%, up to 1.13x. For a grid of one wave too (16 rows in
	 * 8-CTA clusters at 1 CTA an SM are 16 clusters where 14 to 15 fit: a second wave of one
	 * or two rows), measured at the 10 sm_90 picks it moves, all few-row
	 * (bench/results/h200-2026-11-29-gpc-one-wave.md): 0.836x by geomean, every one faster by
	 * 12-25%. Counting clusters of 2 that way as well had moved 64-row picks off 2-CTA clusters
	 * that the driver holds in one wave, 1.08-1.22x slower. From 3 CTAs an SM up the GPCs count
	 * more than the driver holds (clusters of 4 at 3 an SM: 376 CTAs, the driver 368; of 16 at
	 * 5: 608, the driver 560), so where the target lists the driver's count (cluster_ctas) and
	 * the row blocks fill the SMs (a grid of many waves, whose steady state is what the driver
	 * holds) the fewer of the two is taken. Measured on the H200, the old pick forced against
	 * the new (bench/results/h200-2026-12-02-cluster-sizes.md), with the count taken at any
	 * rows: 29 sm_90 golden picks 0.981x the time by geomean, 46 fresh points of 16 kernels at
	 * 24-3000 rows of 100000-520000 columns 0.981x. Split by rows, at 300 rows or more 0.949x
	 * (15 golden) and 0.977x (42 fresh: fused_linear_jsd, welford and layer_norm bf16 from
	 * clusters of 16 to 8, 0.85-0.90x; gated_rmsnorm bf16 1.13-1.16x), under the SMs 1.017x (14
	 * golden, cross_entropy bf16 37x1000003 1.15x) and 1.024x (4 fresh), where the GPCs' count
	 * at one wave had measured 0.836x (above). That split is read off the same points. The
	 * driver's count where it is over the GPCs' (clusters of 8 and 16 at 1 CTA an SM) moved
	 * picks to 16-CTA clusters of one CTA an SM that ran 1.35-1.44x the time: not taken. */
	slots = cost_slots(c, t, o->ctas_per_sm, M, &o->slots_by);
	/* a persistent grid: blocks row blocks a CTA, every CTA resident (one wave); a grid of
	 * clusters walks them a cluster at a time */
	double blocks = 1;
	if (c->grid > 0) {
		/* the whole kernel in the column pass: every CTA of the grid takes a slice */
		int64_t all = colpass_whole(f->colsum_whole, c) ? c->grid : row_ctas * segs;
		o->ctas = c->grid < all ? c->grid : all;
		o->ctas = o->ctas < slots ? o->ctas : slots;
		o->ctas = o->ctas / segs * segs;
		/* a band wider than the slots: one band still, which the policy's residency test
		 * refuses (a cooperative launch over the slots) */
		if (o->ctas < segs)
			o->ctas = segs;
		/* dynamic too: the hardware fills an SM as a CTA retires, so a grid of one CTA
		 * a block has the same tail; the counter only helps where other work takes SMs,
		 * which the model does not see */
		blocks = (double)cdiv(row_ctas, o->ctas / segs > 0 ? o->ctas / segs : 1);
	}
	o->slots = slots;
	o->waves = (double)o->ctas / slots;
	d->slots = slots;
	d->blocks = blocks;
}

/* The bytes from HBM and from L2, and the tail after the rows. */
static void
cost_bytes(const Facts *f, const Config *c, int64_t M, int64_t N, const Target *t, Stage *d,
	   Cost *o)
{
	int threads = d->threads, kept = d->kept, held = d->held, one = d->one, lanes = d->lanes;
	int whole = d->whole, rows_cp = d->rows_cp, passes = d->passes;
	int64_t seg = d->seg, slots = d->slots;
	double blocks = d->blocks;
	/* a row's part of one warp access: under a 32-byte sector, the rest of the sector is
	 * fetched (or written) again by the row's next access */
	int isz = f->load_isz > 0 ? f->load_isz : 4;
	int span = lanes * c->vec * isz;
	double sector = span < SECTOR ? (double)SECTOR / span : 1;
	/* exactly one sector, on rows of a line or more: every request to L2 carries one sector
	 * (no other row's shares its line), at ONE_SECTOR the cost of requests of two or more */
	if (span == SECTOR && lanes < 32 && N * isz >= LINE)
		sector = ONE_SECTOR;
	o->sector = sector;
	o->span = span;
	double MN = (double)M * N;
	/* a kernel that stores nothing but its colsums (Facts.colsum_only), with them in a pass of
	 * their own or the column pass, or one made whole in the column pass (colpass_whole), has
	 * rows with nothing to read: that pass reads the inputs, once, from HBM */
	int empty_rows =
	    whole || (f->colsum_only && (colsum_column(f->colsums, c) ||
					 colsum_late(f->colsums, f->colsum_alone, c, N)));
	/* with the colsums out of the rows (their own pass or the column pass), a load only they
	 * read is not the rows' (Facts.rows_tile_bytes: masked_pool's rows read the mask alone) */
	int out_of_rows =
	    colsum_column(f->colsums, c) || colsum_late(f->colsums, f->colsum_alone, c, N);
	int rows_in = out_of_rows ? f->rows_tile_bytes : f->tile_in_bytes;
	double hbm = MN * (empty_rows ? 0 : (rows_in + f->tile_out_bytes) * sector) +
		     (double)N * f->vec_in_bytes + (double)M * (f->row_in_bytes + f->row_out_bytes);
	double l2 = 0, reread = 0;
	int64_t readers =
	    seg * f->vec_in_bytes <= t->l1_bytes / L1_SHARE && o->ctas > slots ? slots : o->ctas;
	if (c->grid > 0 && !held) /* every block of every CTA reads them, from L1 at best */
		readers = (int64_t)(o->ctas * blocks);
	for (int p = 0; p < passes && p < MAX_PASSES && !empty_rows; p++) {
		double vec = c->persistent ? f->vec_in_bytes : f->pass_vec_bytes[p];
		l2 += (double)readers * seg * vec;
		if (!c->persistent && !kept)
			reread += MN * f->pass_tile_bytes[p];
	}
	if (!c->persistent && !kept)
		reread -= MN * f->tile_in_bytes;
	o->reread_hit = 1.0;
	o->reread_ws = 0;
	if (reread > 0) {
		int64_t inflight = o->ctas < slots ? o->ctas : slots;
		double ws = o->reread_ws = (double)inflight * c->m_block * seg * f->tile_in_bytes;
		double hit = o->reread_hit = ws > 0 ? fmin(1.0, 0.5 * t->l2_bytes / ws) : 1.0;
		l2 += hit * reread;
		hbm += (1 - hit) * reread;
	}
	if (o->spills) /* each spilled word is stored once and loaded once per pass, via L1/L2 */
		l2 += (double)(o->capped - o->reg_limit) * 4 * (1 + passes) * threads * o->ctas;
	double tail_ns = 0, cp_hbm = 0;
	if (colsum_column(f->colsums, c)) {
		/* the column pass reads the colsums' [M,N] inputs again after the rows: those the
		 * rows read from L2 as far as half the L2 holds them, the rest from HBM; its round
		 * trips are the tail.
		 * A warp's access is its lanes' consecutive positions of a row (the rest of it
		 * other rows): under a 32-byte sector, the rest of each sector is fetched for
		 * nothing */
		ColpassLanes ln;
		int64_t nj = colpass_slice(N, o->ctas, f->colpass_arrays.isz);
		/* made whole there, it reads every [M,N] input and writes the [M,N] outputs */
		int in = colpass_in_bytes(f, c);
		colpass_lanes_of(f, c, M, N, o->ctas, colsum_ctas(c, o, t), &ln);
		int64_t run = (ln.lanes < nj ? ln.lanes : nj) * 4 * f->colsum_isz;
		double waste = run < SECTOR ? (double)SECTOR / (double)run : 1;
		double again = (double)M * N * in * waste;
		if (whole)
			hbm += (double)M * N * f->tile_out_bytes * waste;
		if (whole && colpass_split(f->colpass_stores, c, N) && ln.turns > 1)
			hbm += colpass_edge_bytes(&f->colpass_arrays, M, o->ctas * ln.turns);
		/* only what the rows read can still be in L2 (Facts.colsum_rows_bytes) */
		double seen = empty_rows ? 0 : (double)M * N * f->colsum_rows_bytes * waste;
		double hit = seen > 0 ? fmin(1.0, 0.5 * t->l2_bytes / seen) : 0;
		l2 += hit * seen;
		hbm += again - hit * seen;
		/* the pass streamed in its round trips (below), reading no row values */
		if (!whole && !rows_cp)
			cp_hbm = again - hit * seen;
		tail_ns = (double)ln.turns * ((double)ln.trips * t->mem_latency_ns +
					      (double)f->colsums * (ln.levels + 1) * t->barrier_ns);
		/* reading row values, it first waits for the grid: a fenced count and a poll */
		if (rows_cp)
			tail_ns += 2 * (t->mem_latency_ns + t->barrier_ns);
	} else if (f->colsums && c->grid > 0) {
		ColsumLayout cl;
		ColsumSlices sl;
		colsum_layout(c, f->colsums, N, &cl);
		colsum_slices(&cl, c, f->colsums, o->ctas, &sl);
		/* the slots, written once and read once: from L2 as far as half the L2 holds
		 * them, from HBM past that (the one slot: none, each CTA stores its sums) */
		double slots = one ? 0 : (double)f->colsums * sl.rows * cl.row_bytes;
		double slots_hit = one ? 1 : fmin(1.0, 0.5 * t->l2_bytes / slots);
		l2 += slots_hit * slots * 2;
		hbm += (1 - slots_hit) * slots * 2;
		/* row lanes: threads / lanes; a turn of lanes positions, two barriers */
		int u, per;
		int64_t turns = cdiv(sl.vectors, sl.lanes);
		double trips = (double)colsum_unroll(cdiv(sl.rows, threads / sl.lanes), turns,
						     threads, colsum_ctas(c, o, t), &u, &per);
		if (!one)
			tail_ns = trips * t->mem_latency_ns +
				  2 * (t->mem_latency_ns + t->barrier_ns) +
				  2.0 * (double)turns * t->barrier_ns;
		/* the pre-sum: two barriers, a shared-memory round trip a turn of the CTA's
		 * threads over the positions */
		if (colsum_presum(f->colsums, c, N))
			tail_ns += 2 * t->barrier_ns +
				   (double)cdiv(f->colsums * cl.cols4, threads) * t->smem_ns;
		if (colsum_late(f->colsums, f->colsum_alone, c, N)) {
			/* the colsums' own pass reads their [M,N] inputs again, from HBM */
			hbm += (double)M * N * f->colsum_tile_bytes;
		} else if (ws_colsums(f->colsums, c, N)) {
			/* partials kept in the slots: each row loads and stores its columns'
			 * partials; the share of the slots half the L2 holds comes from L2, the
			 * rest from HBM */
			double each = (double)f->colsums * M * cl.row_bytes * 2;
			l2 += slots_hit * each;
			hbm += (1 - slots_hit) * each;
		}
	}
	o->hbm_bytes = hbm;
	o->l2_bytes = l2;
	d->tail_ns = tail_ns;
	d->cp_hbm = cp_hbm;
}

/* A CTA's latency: its round trips, reductions, exchanges and fixed cost. */
static void
cost_latency(const Facts *f, const Config *c, const Target *t, const Stage *d, Cost *o)
{
	int tpr = d->tpr, kept = d->kept, lanes = d->lanes, whole = d->whole, passes = d->passes;
	int64_t seg = d->seg, ept = d->ept;
	double blocks = d->blocks;
	int64_t chunks = c->persistent ? 1 : cdiv(seg, c->r_block);
	double red_ns = log2(lanes > 1 ? lanes : 1) * t->shfl_ns + (tpr > 32 ? t->barrier_ns : 0);
	/* a pass waits a DRAM round trip a chunk; a later pass over a kept row waits on shared
	 * memory instead, and on L2 where it reads an [N] input; under a cluster each dependent
	 * level adds the exchange through distributed shared memory */
	o->dram_ns = (double)chunks * (f->folded ? cdiv(cdiv(ept, c->vec), FOLD_VECS) : 1) *
		     t->mem_latency_ns;
	o->reduce_ns = f->levels * red_ns;
	if (whole) /* the rows read nothing: the column pass streams the kernel (below) */
		o->dram_ns = 0;
	o->fixed_ns = c->grid > 0 ? t->cta_ns / blocks : t->cta_ns;
	double cta_ns = o->dram_ns + o->reduce_ns + o->fixed_ns;
	o->ticket_ns = o->passes_ns = o->cluster_ns = o->split_ns = 0;
	if (c->grid > 0 && c->dynamic) /* thread 0's ticket, then a barrier */
		cta_ns += o->ticket_ns = t->mem_latency_ns + t->barrier_ns;
	/* a split CTA retires only once its partials are fenced and the row's counter has
	 * answered: a round trip, then a barrier, as the ticket */
	if (c->split > 1)
		cta_ns += o->split_ns = t->mem_latency_ns + t->barrier_ns;
	for (int p = 1; p < passes && p < MAX_PASSES; p++) {
		double w = chunks * (!kept		    ? t->mem_latency_ns
				     : f->pass_vec_bytes[p] ? t->smem_ns + t->mem_latency_ns
							    : t->smem_ns);
		cta_ns += w;
		o->passes_ns += w;
	}
	if (c->cluster > 1)
		cta_ns += o->cluster_ns = f->levels * (c->coop ? t->coop_ns : t->cluster_ns);
	o->cta_us = cta_ns / 1e3;
}

/* The time: the stream (or the CTAs' start, or a short row's issue), the tail, L2 and the
 * launch. */
static void
cost_time(const Facts *f, const Config *c, int64_t M, int64_t N, const Target *t, const Stage *d,
	  Cost *o)
{
	int segs = d->segs, held = d->held, whole = d->whole;
	int64_t row_ctas = d->row_ctas, slots = d->slots;
	double blocks = d->blocks, tail_ns = d->tail_ns, cp_hbm = d->cp_hbm;
	double hbm = o->hbm_bytes, l2 = o->l2_bytes;
	double bw = t->hbm_gbps * 1e3; /* bytes per µs */
	double us = 0;
	if (whole) {
		/* the column pass is the kernel: a CTA's bytes take its round trips (the tail) at
		 * least, so the tail overlaps the stream instead of following it */
		double per_cta = hbm / o->ctas, trips_us = fmax(tail_ns / 1e3, o->cta_us);
		double rate = trips_us > 0 ? per_cta / trips_us : bw;
		us = per_cta > 0 ? o->ctas * per_cta / (bw * -expm1(-o->ctas * rate / bw)) : 0;
	} else if (c->grid > 0) {
		/* blocks rounds of the grid; ahead keeps a second block's bytes in flight (the
		 * ring more, which measured no faster: three blocks ahead against two). The
		 * column pass after them is its own stream (below) */
		double per_block = (hbm - cp_hbm) / ((double)row_ctas * segs);
		double rate = per_block * (1 + (held && c->ahead)) / o->cta_us;
		us = blocks * o->ctas * per_block / (bw * -expm1(-o->ctas * rate / bw));
	} else {
		double per_cta = hbm / o->ctas;
		double cta_rate = per_cta / o->cta_us; /* bytes per µs one CTA streams */
		int64_t full = o->ctas / slots, rest = o->ctas % slots;
		if (full)
			us += full * (slots * per_cta) / (bw * -expm1(-slots * cta_rate / bw));
		if (rest)
			us += (rest * per_cta) / (bw * -expm1(-rest * cta_rate / bw));
	}
	/* the hardware starts a launch's CTAs one after another, dispatch_ns apart over the whole
	 * GPU whatever their size (an empty kernel of G CTAs: 3.8 us + 0.60 ns x G on the H100,
	 * 1056 to 67584 CTAs of 32 to 512 threads); a launch ends no sooner than its last CTA has
	 * started and run, so many short CTAs wait on their start, not on HBM */
	o->stream_us = us;
	o->dispatch_us = (double)o->ctas * t->dispatch_ns / 1e3;
	o->dispatch_bound = o->dispatch_us + o->cta_us > us;
	if (o->dispatch_bound)
		us = o->dispatch_us + o->cta_us;
	/* short rows: the issue term where it is over the HBM time (heuristics.h says what it
	 * counts and why not for longer rows or sums over rows) */
	o->issue_us = whole || f->colsums || N > SHORT_ROW ? 0 : issue_us(f, c, M, N, t);
	o->issue_bound = o->issue_us > us;
	if (o->issue_bound) {
		o->dispatch_bound = 0;
		us = o->issue_us;
	}
	/* the column pass after the rows streams its bytes from HBM in its round trips: its
	 * time is the longer of the two, the bytes' at the HBM rate or the round trips', not
	 * their sum (each trip has a CTA's rows of its slice in flight). Measured on an H200,
	 * the column pass on the own pass's rows ran the kernel's bytes at 92-95% of copy
	 * (masked_pool bf16 1024x131072, 4096x65536), where the model had added 77 us of round
	 * trips after the bytes (1024x131072), and Little's law's blend of the two, as the rows
	 * take, charged 317 us for 257 us of bytes (4096x65536) and put the column pass 2-18%
	 * over the own pass at three points where it ran 0.71-0.95x the time
	 * (bench/results/h200-2026-12-04-colpass-stream.md). Not the column pass reading row
	 * values (colpass_rows): its round trips stay a tail after the stream, which its ranking
	 * was measured with; streamed there too, the ranking moved 25 held-out picks, 0.47x to
	 * 1.53x the time (same file) */
	o->combine_us = tail_ns / 1e3;
	if (cp_hbm > 0)
		o->combine_us = fmax(cp_hbm / bw, tail_ns / 1e3);
	double hbm_us = us + (cp_hbm > 0 ? o->combine_us : 0);
	o->bw_gbps = hbm_us > 0 ? hbm / hbm_us / 1e3 : 0;
	o->mem_us = us;
	o->l2_us = l2 / (t->l2_gbps * 1e3);
	/* a split's combine, and past SPLIT_UNROLL segments the last CTA's merge loop (the rows'
	 * last CTAs merge in parallel) */
	o->launch_us =
	    t->launch_us + (c->split > 1 ? t->split_us : 0) +
	    (c->split > SPLIT_UNROLL ? (c->split - SPLIT_UNROLL) * SPLIT_MERGE_NS / 1e3 : 0);
	o->us = us + o->l2_us + o->launch_us + (whole ? 0 : o->combine_us);
}

/* The stages in order; each reads what the ones before it set in d and o. */
void
cost_model(const Facts *f, const Config *c, int64_t M, int64_t N, const Target *t, Cost *o)
{
	Facts tmp, tmp2;
	Stage d;
	f = steps_facts(smem_facts(f, c, &tmp), c, &tmp2);
	cost_derive(f, c, M, N, &d);
	cost_regs(f, c, M, N, t, &d, o);
	cost_grid(f, c, M, N, t, &d, o);
	cost_bytes(f, c, M, N, t, &d, o);
	cost_latency(f, c, t, &d, o);
	cost_time(f, c, M, N, t, &d, o);
}

int
grid_one_wave(const Cost *o, const Facts *f, const Config *c, int64_t M, int64_t N, const Target *t)
{
	/* o->slots: SMs x CTAs an SM; whole clusters, at most CLUSTER_GRID_PER_SM an SM, under a
	 * grid of clusters */
	int segs = config_segments(c);
	int64_t blocks = cdiv(M, c->m_block) * segs, slots = o->slots;
	if (colpass_whole(f->colsum_whole, c))
		blocks = cdiv(cdiv(N, 4), colpass_min_pos(f, c, N));
	if (c->cluster > 1 && !c->coop)
		slots = cost_slots(c, t,
				   o->ctas_per_sm < CLUSTER_GRID_PER_SM ? o->ctas_per_sm
									: CLUSTER_GRID_PER_SM,
				   M, NULL);
	return (int)((blocks < slots ? blocks : slots) / segs * segs);
}
