/* Heuristics: targets as data, the policies that choose a launch configuration, and their reasons.
 */
#ifndef RKC_HEURISTICS_H
#define RKC_HEURISTICS_H

#include "analysis/analysis.h"

/*
 * A launch configuration. The execution model (docs/design.md, docs/codegen.md):
 * a CTA has num_warps*32 threads and owns m_block rows; each row is owned by
 * tpr = num_warps*32/m_block threads (a power of two, 1..1024). A thread touches vec
 * consecutive elements per access (16 bytes when the row allows it, else fewer).
 * persistent: the row slice stays in registers; each thread holds r_block/tpr elements of its row,
 *   and r_block >= N (a multiple of tpr*vec).
 * looped: each pass streams the row in chunks of r_block elements (tpr*vec divides r_block).
 * split: CTAs per row (1 = none); each covers a contiguous segment, the last to finish combines
 *   through a global workspace, so only one-pass kernels of plain reductions split.
 * smem: 1 = looped, and every input a later pass reads again is kept in dynamic shared memory by
 *   the pass that first reads it: the row slice goes from HBM once, later passes read it on chip.
 *   2 = kept the same way, but filled by cp.async (sm_80 and later) FILL_AHEAD chunks ahead of the
 *   first pass, which, like every later pass, reads the row from shared memory.
 * stash: 1 = with rows kept (smem 1 or 2), the values the plan stashes (Plan.stash: what the last
 *   reduction pass computes and the apply pass needs, where recomputing them costs a
 * transcendental) are stored by the last reduction pass in shared memory, f32, beside the kept
 * rows, and read back by the apply pass; 0 = the apply pass recomputes them from the kept rows.
 * cluster: CTAs of a thread-block cluster per row (1 = none; sm_90): each covers a contiguous
 *   segment as under split, and after every reduction the CTAs exchange their partials through
 *   distributed shared memory in rank order, so every pass and every kernel can be spread.
 * coop: 1 = the cluster's CTAs are no hardware cluster but a cooperative group of cluster (2 to
 *   MAX_COOP) CTAs, on any arch: they exchange their partials through the workspace and wait for
 *   each other at an atomic counter a row block, so a row spreads over more CTAs than a cluster
 *   holds. The launch is cooperative: every CTA resident at once, or the driver refuses it.
 * evict: 1 = L2 eviction hints on 16-, 8- and 4-byte loads of inputs: a row chunk that a later
 *   pass reads again evict_last, every last read evict_first, [N] inputs (shared by every CTA)
 *   evict_last; 0 = none.
 * min_ctas: CTAs per SM the kernel must fit (PTX .minnctapersm): ptxas caps a thread's registers
 *   at the register file over min_ctas * threads, so the occupancy the cost model plans for
 *   holds even where ptxas would take more registers; 0 is 1.
 * grid: 0 = a CTA per row block (cdiv(M, m_block) CTAs, times the segments); else a persistent
 *   grid of at most this many CTAs (the policy takes SMs x resident CTAs), each walking row
 *   blocks: block ctaid first, then ctaid + grid, ... (static), or, with dynamic=1, the next
 *   free block from an atomic counter in the workspace. Rows are not cut (no split or cluster).
 * dynamic: 1 = the persistent grid takes row blocks after its first from the work counter.
 * ahead: 1 = persistent rows under a persistent grid: the next row block's [M,N] loads are
 *   issued before this block's reductions, so a row is always in flight (needs N % vec == 0).
 *   2 to AHEAD_RING_MAX = the next `ahead` row blocks' [M,N] loads in flight by cp.async into a
 *   ring of ahead + 1 slots of dynamic shared memory (smem_ring_bytes), a commit group a block;
 *   the block's code reads its slot, so no row is held in registers across blocks (static grid).
 * steps: 1 = persistent rows with a tail (Plan.tail: after the row's last exchange only
 *   element-wise work and stores): the tail is made a vector at a time, each vector's loads,
 *   arithmetic and stores before the next one's, so the inputs it reads (a weight, a bias) take
 *   registers for a vector, not for the row; 0 = each value over the whole row, every load first.
 * colpass: 1 = the sums over rows leave the rows' passes: after its rows each CTA of the grid
 *   sums a slice of the columns over every row, reading the colsums' inputs again, and stores
 *   the sums itself (colsum_column); no partials. Where they need no row reduction
 *   (Plan.colsum_alone), no workspace and no wait for the grid; where one does, the rows write
 *   the row values it reads to the workspace and every CTA waits for the grid first
 *   (colpass_rows). A kernel with no row reduction (Plan.colsum_whole) is made whole there, its
 *   [M,N] stores too, and its rows do nothing (colpass_whole). 0 = partials a CTA, combined
 *   through the workspace.
 */
typedef struct {
	int persistent;
	int64_t r_block;
	int m_block;
	int num_warps;
	int vec;
	int split;
	int evict;
	int min_ctas;
	int smem;
	int cluster;
	int grid;
	int dynamic;
	int ahead;
	int coop;
	int stash;
	int steps;
	int colpass;
} Config;

/* The most row blocks a persistent grid has in flight through its shared-memory ring (ahead). */
enum { AHEAD_RING_MAX = 4 };

/* The most CTAs a cooperative row (coop=1) spreads over. */
#define MAX_COOP 1024

/* The bytes an element of a row that c keeps on chip (smem 1 or 2, looped): its kept loads', and
 * under stash=1 its stashed values'. */
static inline int
config_kept_bytes(const Facts *f, const Config *c)
{
	return c->stash ? f->stash_kept_bytes : f->kept_bytes;
}

/* Whether c's stash keeps no row: the stashed values, 4 bytes each, are all it keeps on chip, so
 * its first pass has nothing to fill. */
static inline int
config_stash_rowless(const Facts *f, const Config *c)
{
	return c->stash && f->stash_kept_bytes == 4 * f->stashes;
}

/* Segments a row is cut into: split or cluster CTAs (at most one of them over 1). */
static inline int
config_segments(const Config *c)
{
	return c->cluster > 1 ? c->cluster : c->split > 1 ? c->split : 1;
}

/* A segment is cdiv(N, segments) columns rounded up to this: whole vectors under a cluster, so
 * its CTAs share the row evenly; whole chunks under split (the rule split rows were built on). */
static inline int64_t
config_segment_granule(const Config *c)
{
	return c->cluster > 1 ? c->vec : c->r_block;
}

/* A persistent grid of bands: each band of `cluster` CTAs walks whole rows, its CTAs a segment
 * each (the validator allows it for kernels with sums over rows, and for others under coop=1).
 * The band is a hardware cluster (config_cluster_grid: its row's partials meet in distributed
 * shared memory) or, under coop=1, a cooperative group whose partials meet in the workspace. */
static inline int
config_band_grid(const Config *c)
{
	return c->grid > 0 && c->cluster > 1;
}

static inline int
config_cluster_grid(const Config *c)
{
	return config_band_grid(c) && !c->coop;
}

/* Every row starts 16-byte aligned: N is a multiple of vec. Else codegen cuts each row at run time
 * into a misaligned head, an aligned body and a tail (docs/codegen.md). */
static inline int
config_rows_aligned(const Config *c, int64_t N)
{
	return c->vec == 1 || N % c->vec == 0;
}

/* The row-stride rule (docs/manifest.md): row r of an [M,N] array starts r*stride elements after
 * its base, and every array's stride must be N plus a multiple of this, so that every array's row
 * r starts as misaligned as r*N: not at all when rows start aligned (config_rows_aligned: stride
 * % vec == 0), else by the head codegen cuts from r*N (body_bounds). 1: any stride. */
static inline int
config_stride_modulus(const Config *c)
{
	return c->vec;
}

/* A persistent grid of persistent rows that start aligned holds its [N] inputs across row blocks
 * (and under ahead=1 the next block's [M,N] loads). */
static inline int
config_grid_holds(const Config *c, int64_t N)
{
	return c->grid > 0 && c->persistent && config_rows_aligned(c, N);
}

/* A body whose loads all fold into reductions as they arrive (sum, long_sum: nothing holds the
 * row) does not have its row (or a looped chunk) in flight: ptxas issues a few vector loads,
 * folds them, then issues the next (the SASS of long_sum 1x1000003 at 62 vectors a thread reuses
 * one register quad for all of them). Fitted on the H100 (bench/results/h100-2026-11-23-fold.md):
 * long_sum bf16 1x1000003 with 8, 31 and 62 vectors a thread takes about 8, 18 and 29 us at any
 * warp count, 0.4 us a vector beyond the first few; at mem_latency_ns 1200 that is a round trip
 * every FOLD_VECS vectors. */
enum { FOLD_VECS = 3 };

/* Segments of a split row whose partials the last CTA's lane 0 combines in straight-line code
 * (codegen/lower_red.c) where a row has fewer threads than a warp; past them it merges the rest in
 * a loop, SPLIT_MERGE_NS a partial (heuristics/cost.c). A row of whole warps merges them on its
 * first warp (combine_warp), measured much cheaper past 64 (a forced split=512 of sum fp32
 * 1x4194304 on an H200, rkc tune: 13.66 us by one thread, 9.79 by the warp); the model still
 * charges it SPLIT_MERGE_NS a partial, so it picks no more segments than it did: charged a round
 * trip a step instead, 3 of the 78 sm_90 golden picks of sum, long_sum and kl_div move from 128
 * segments to P r16384 w32 s256 k2, which rkc tune timed 1.063x the pick at sum fp32 1x4194304
 * (bench/results/h200-2026-11-30-lone-cta.md, section 5). Fitted on the H100
 * (bench/results/h100-2026-11-23-fold.md, "What the split costs"): sum fp32 1x(S*256), one vector a
 * segment, took 6.27 us at 64 segments, 10.59 at 512 and 14.69 at 1024: about 8 ns a partial
 * past 64. */
enum { SPLIT_UNROLL = 64, SPLIT_MERGE_NS = 8 };
/* Where a split row spans whole warps, its last CTA's first warp merges the partials instead
 * (codegen/lower_red.c, combine_warp): a lane loads SPLIT_LANE_LOADS of them at a time. */
enum { SPLIT_LANE_LOADS = 8 };

/* smem=2: the chunks of the kept rows that cp.async copies ahead of the first pass's chunk
 * (codegen/lower_rows.c), each a commit group, so the pass reduces one chunk while the next ones
 * arrive. */
enum { FILL_AHEAD = 2 };

/* The rkc policy fills its kept rows by cp.async (smem=2) where a CTA's first pass streams at
 * least this many chunks, and by registers (smem=1) below it. On the H100 the cp.async fill
 * against the register fill at the same config, 71 bf16 kept-row picks
 * (bench/results/h100-2026-11-24-math.md): 2 chunks 0.954x by geomean (34 points), 3 to 5 chunks
 * 0.93-1.10x (31), 7 to 10 chunks 1.04-1.21x (all 6 faster). Past FILL_AHEAD chunks the fill keeps
 * two chunks in flight while the pass reduces, where the register fill's chunk waits for its own
 * loads; at 2 chunks both have the whole slice in flight and the fill reads it back from shared
 * memory once more. */
enum { FILL_MIN_CHUNKS = 7 };

/* min_ctas binds ptxas to a cap at most a SQUEEZE_MAX-th under the registers the model predicts
 * (rkc_min_ctas): the capped count says ptxas fits a thread squeezed further, but it is the
 * model's guess at what ptxas gives up, and past its error (14% on average, docs/heuristics.md) the
 * guess failed on kernels no rule was tuned on. The squeeze is one CTA an SM where two-warp CTAs
 * split unevenly over the sub-partitions (25 CTAs of 64 threads cap at 32 registers, 24 at 40).
 * Measured on an H200 (bench/results/h200-2026-12-04-survey.md, call 4), each such min_ctas one
 * CTA lower at 93 points: the 7 whose cap was over a sixth under the prediction (40 or 39
 * predicted, 32 capped) 0.90x the time by geomean (swiglu_bwd bf16 262144x64 52.5 -> 40.7 us:
 * 28 bytes of spills gone; one 2.2% slower); the other 86 1.004x, up to 1.09x slower
 * (layer_norm bf16 1048576x129 at 128 of 132), so there the squeeze stays. */
enum { SQUEEZE_MAX = 6 };

/* A looped row kept on chip by the register fill (smem=1) whose first pass streams at most this
 * many chunks a CTA takes half the ranking's r_block where that fits more CTAs an SM, or where a
 * heavy first pass then reaches FILL_MATH_CHUNKS and the cp.async fill (settle_kept_chunk,
 * heuristics/rkc_settle.c): each chunk's loads wait in registers before they reach
 * shared memory, so half the chunk is fewer registers a thread and more CTAs an SM to overlap the
 * fill's round trips, which the model does not credit a kept row. On the H200 (bench/results/
 * h200-2026-12-01-kept-chunks.md), the half against the pick at 53 picks of 2-3 chunks: where the
 * model's CTAs an SM rise and the launch has more CTAs than SMs, 16 points 0.814-0.974x the time,
 * all faster; where they do not, 36 points 1.003x by geomean, 9 slower by 2-13%. */
enum { KEPT_FEW_CHUNKS = 3 };

/* ...and from FILL_MATH_CHUNKS chunks where the first pass spends at least FILL_MATH_OPS
 * instructions an element (Facts.pass_ops, analysis/facts.c): the register fill issues a chunk's
 * loads only once the chunk before is reduced, so the HBM waits on the pass's math. On the H200,
 * cp.async against the register fill at the 57 kept-row picks of 3 to 5 chunks (bench/results/
 * h200-2026-11-29-fill.md): at 10 or more instructions (19 points: fused_linear_jsd,
 * cross_entropy_backward fp32, gated_rmsnorm bf16) 0.946x by geomean, none slower by over 1%;
 * under 10 (38) 1.025x, 21 slower by over 2% (layer_norm, softmax, the fused_add norms); at 2
 * chunks and 10 or more (14) 0.998x, 5 faster and 4 slower by over 2%. A deeper fill, 4 or 8
 * chunks ahead, measured 0.994x and 1.008x at the 6 picks of 7 or more chunks. */
enum { FILL_MATH_OPS = 10, FILL_MATH_CHUNKS = 3 };

/* The most dynamic shared memory any target gives a CTA (sm_90's and sm_100's 227 KiB). */
enum { MAX_DYN_SMEM = 227 * 1024 };

/* A kernel's sums over rows (colsum) under config c (codegen/lower_colsum.c): a partial row, a
 * "slot", per CTA of the grid where its row groups first add theirs in shared memory
 * (colsum_presum), else per row group (grid * m_block), each N floats padded to 16 bytes, or,
 * where the partials stay in the slot while the rows stream (ws_colsums), the chunks that cover N.
 * Every CTA writes its slots, counts itself in and waits for all the grid's CTAs, then sums its
 * slice of the columns over all the slots into the outputs. So every CTA must be resident at once:
 * the launch is cooperative (config_cooperative), and the driver refuses a grid the device cannot
 * hold. The counters: a u32 of CTAs arrived at word COLSUM_DONE_WORD, of CTAs out at
 * COLSUM_LEAVE_WORD. */
int ws_colsums(int ncolsum, const Config *c, int64_t N);
int64_t smem_colsum_cols(const Config *c, int64_t N);
/* The colsums' own pass: where the partials would stay in the workspace (ws_colsums) and no
 * colsum needs a row reduction (alone: Plan.colsum_alone), the rows' passes leave the colsums
 * out, and after its last row block the CTA walks its row blocks again a chunk at a time, summing
 * the chunk's columns over its rows in registers (reading the colsums' [M,N] inputs again) and
 * writing them to its slots, laid out as ws_colsums' (colsum_own_pass, codegen/lower_sched.c).
 * Every row's partials then stay on chip: the workspace sees each slot once, not once a row. */
int colsum_late(int ncolsum, int alone, const Config *c, int64_t N);
/* The column pass (colpass=1): after its rows each CTA sums a slice of the columns over every
 * row from the inputs and stores the sums (colsum_column_pass, codegen/lower_sched.c); no
 * partials while the rows stream, no slots. Where the colsums need no row reduction, no wait
 * for the grid either, so no cooperative launch for the colsums. */
int colsum_column(int ncolsum, const Config *c);
/* The column pass where a colsum needs a row reduction (alone: Plan.colsum_alone): the rows
 * write the row values it reads (Plan.rowval) to the workspace, and every CTA waits for the
 * grid before its column pass, so the launch is cooperative. */
int colpass_rows(int ncolsum, int alone, const Config *c);
/* The whole kernel in the column pass: a kernel with no row reduction (Plan.colsum_whole) under
 * colpass=1. The column pass then makes the [M,N] stores too, over the same positions and rows
 * (Plan.need_colpass), no rows are lowered (grid_loop, codegen/lower_sched.c), and its grid is
 * not bounded by the row blocks: every CTA takes its slice of the columns (codegen_launch). */
int colpass_whole(int whole, const Config *c);
/* The words a row of the column pass holds in a thread, which size its round trips here and in
 * codegen: under colpass_split (it stores [M,N] outputs element by element), Facts.colpass_words
 * (its loads a register an element, its [M] values and its addresses: plan_colpass_words), as its
 * whole trips run without a branch and ptxas issues all their rows' loads at once
 * (colpass_split_trip); else the bytes an element of its [M,N] inputs and 2 for [M] values. Not by
 * what the chain holds (4 x Facts.held_words): bias_gelu_back then took 2 rows a round trip, not 4,
 * at 16 warps of 64 registers and ran 1.9x the time
 * (bench/results/h200-2026-12-01-colpass-whole.md). Where it stores nothing element by element,
 * codegen sizes its trips by its own count (the bytes an element of the [M,N] inputs the pass
 * loads and a word of each other input it loads): the model ranking by that count moved 41
 * held-out picks of the whole kernel in the column pass (more CTAs an SM) and ran 1.035x the
 * time, 21 slower (bench/results/h200-2026-12-02-colpass-odd.md, call 7), so the model keeps
 * this one; codegen taking it instead is not measured. */
int colpass_words(const Facts *f, const Config *c, int64_t N);
/* The fewest positions (vectors of 4 columns) a CTA of the whole kernel in the column pass takes:
 * COLPASS_MIN_POS where it stores [M,N] outputs or reads element by element, else 1. */
int colpass_min_pos(const Facts *f, const Config *c, int64_t N);
/* The one slot: a grid of one band (one CTA, or one cluster whose CTAs take a segment each) of
 * one row group walks every row, so each CTA's partials are already the sums of its columns: it
 * stores them to the outputs itself, converted (colsum_finish, or the own pass's
 * colsum_own_store), and there is no workspace, no wait and no cooperative launch. Where the
 * partials stay in the slot while the rows stream (ws_colsums without the own pass) they still
 * go through the combine. */
int colsum_one_slot(int ncolsum, int alone, const Config *c, int64_t N);
/* The pre-sum: whether a persistent row's m_block row groups (more than one) add their partials in
 * shared memory, in group order, before the CTA writes one slot, where the m_block partial rows
 * take at most PRESUM_MAX_BYTES (so that, beside the static arrays, a CTA of every target holds
 * them: sm_80 gives 163 KiB). A slot a CTA, not a row group, cuts the bytes the combine writes
 * and reads through L2 m_block times. smem_presum_bytes: its bytes, 0 where it does not apply;
 * the area is the dynamic one, free once the rows are done (smem_layout). */
enum { PRESUM_MAX_BYTES = 96 * 1024, PRESUM_LOADS = 4 };
int colsum_presum(int ncolsum, const Config *c, int64_t N);
int64_t smem_presum_bytes(int ncolsum, const Config *c, int64_t N);
typedef struct {
	int64_t slots, row_bytes, cols4; /* cols4: the vectors of 4 columns that cover N */
	int per_cta; /* the slots a CTA writes: 1 under the pre-sum, else m_block */
} ColsumLayout;
enum { COLSUM_DONE_WORD = 0, COLSUM_LEAVE_WORD = 1 };
/* A combine sums up to COLSUM_UNROLL partial rows a round trip, their loads issued before the
 * adds, and where a slice has fewer rows, the rows of up to COLSUM_TURNS turns of positions at
 * once: up to COLSUM_LOADS loads of 16 bytes in flight a thread. Each turn holds its sums (4
 * registers) across the round trip: 20 turns of one row spilled 1352 bytes a thread at the 64
 * registers of 32 warps (layer_norm_backward bf16 3x20000, 15x the time on the H100). */
enum { COLSUM_UNROLL = 16, COLSUM_LOADS = 20, COLSUM_TURNS = 2 };

/* The rows of a stream a round trip takes: all of them, up to COLSUM_UNROLL. */
static inline int
colsum_rows_a_trip(int64_t rows)
{
	return rows < 1 ? 1 : rows < COLSUM_UNROLL ? (int)rows : COLSUM_UNROLL;
}

/* The registers an SM has on every target (each target's regs_per_sm; tests/heuristics checks
 * it): what bounds the combine's round trip in codegen, which has the config and not the target. */
enum { COLSUM_REGFILE = 65536 };

/* The registers the combine's round trip may take in a CTA of `threads` threads, `ctas` of them
 * an SM (min_ctas): what a thread may take (at most 255), less the eighth the policy keeps free
 * (rkc_within_budget, heuristics/rkc_rank.c). */
static inline int
colsum_thread_regs(int threads, int ctas)
{
	int64_t r = COLSUM_REGFILE / ((int64_t)threads * (ctas > 1 ? ctas : 1)) / 8 * 8;
	r = r < 255 ? r : 255;
	return (int)(r - r / 8);
}

/* A slice's round trips (codegen/lower_colsum.c, heuristics/cost.c): `rows` partial rows a
 * thread sums for each of its `pairs` turns of positions, u rows of `per` turns a round trip;
 * returns the round trips. A round trip whose loads would take more registers than a thread of
 * the CTA gets (`threads`, `ctas` an SM: colsum_thread_regs; regs_combine under a cap) drops a
 * turn, then rows, until they fit: 16 rows a trip spilled at the 64 registers of 32 warps, so the
 * register model expected spills at every CTA of 32 warps with sums over rows and the policy
 * dropped them (docs/codegen.md, "The slices"). The adds run in row order whatever u. */
static inline int64_t
colsum_unroll(int64_t rows, int64_t pairs, int threads, int ctas, int *u, int *per)
{
	*u = colsum_rows_a_trip(rows);
	*per = COLSUM_LOADS / *u < COLSUM_TURNS ? COLSUM_LOADS / *u : COLSUM_TURNS;
	if (*per > pairs)
		*per = (int)pairs;
	if (*per < 1)
		*per = 1;
	int cap = colsum_thread_regs(threads, ctas);
	while (*u * *per > 1 && regs_combine(*u * *per, *per, 1) > cap) {
		if (*per > 1)
			(*per)--;
		else
			(*u)--;
	}
	return (pairs + *per - 1) / *per * ((rows + *u - 1) / *u);
}

/* The column pass (colpass=1; codegen/lower_sched.c, heuristics/cost.c): a CTA of `threads`
 * threads, `ctas` an SM, sums nj positions (vectors of 4 columns) over M rows. `lanes`
 * consecutive threads take as many positions a turn, and the CTA's threads / lanes "row lanes"
 * rows l, l + row lanes, ..., u rows a round trip: as many as the rows need, up to COLPASS_ROWS
 * and to what the thread's registers hold of `row_words` loaded words a row, then spread evenly
 * over the round trips that takes (9 rows at up to 8 a trip: 5 and 5, not 8 and 8). A turn's row
 * lanes then add their sums in a tree through shared memory, a barrier a level. The lanes are the
 * power of two (dividing the threads) with the fewest round trips a thread, a tree level counted a
 * quarter of one (a barrier against an L2 round trip): all threads on positions where the rows
 * are few, row lanes where the slice is narrow. The fewest turns first (each turn walks every
 * row) ran 0.97-1.12x the time at 13 of 15 points at 1024 rows, 0.76-0.82x at two of
 * bias_silu_back (bench/results/h200-2026-12-05-colpass-slices.md, call 4): not taken.
 * But a turn reads at least COLPASS_RUN bytes of a row (lanes x 4 columns x `isz`, the narrowest
 * [M,N] array's element) where the slice holds them: HBM reads 64 bytes for each 32-byte sector
 * asked for, and the sector beside it is out of the L2 before the next turn, which walks every
 * row again, comes back for it. On an H100, rms_colsum bf16 4096x131072 at one config (grid 396,
 * 3 CTAs an SM, a row a trip) ran 1395.9 us with 32-byte runs over 21 turns, 1017.5 us with
 * 64-byte runs over 11 (bench/results/h200-2026-12-05-colpass-runs.md, call 2); the round trips
 * counted above tie there within their rounding. Each build its own pick, on an H200 at 18 points
 * whose lanes or pick this moves: 0.826x the time by geomean, 10 faster by over 2%, none slower
 * (bench/results/h200-2026-12-05-colpass-runs.md; on an H100 at 11 such points 0.723x, none
 * slower).
 * Where rows start misaligned (colpass_wide false) the pass reads and writes element by element,
 * and the lanes are those of the least modelled time (colpass_misaligned_cost), the round trips
 * above breaking ties: the longer of its HBM bytes, each turn's strip edges included
 * (colpass_edge_bytes), and its element accesses, then a fixed cost a turn and a tree level.
 * fp32 runs into the bytes, so fewer turns win; bf16, half the bytes for as many accesses, into
 * the accesses, so the fewest a thread (idle lanes counted) win; few rows into the turns. The
 * constants are fitted on an H100 (the SM's share of 90% of its copy rate; an H200 streams 1.4x
 * that) to 88 timed pairs of lanes or configs, 0.35-1.98x apart (bench/results/
 * h100-2026-12-06-colpass-lanes.md): the model orders 81 as they ran (ties within 2% counted);
 * without the instructions' share 73, the bytes and accesses alone 68, the round trips above 42.
 * Each build its own pick at 22 fresh points whose PTX it changes: 0.848x the time by geomean, 17
 * faster by over 2%, 3 slower (bias_gelu_erf_back fp32 12288x135173 1.346x: erf's instructions
 * make the accesses the longer term, and the 16 more turns' edge bytes counted for nothing under
 * it). So the shorter term counts a quarter (COLPASS_OVERLAP: the two overlap, not wholly; the
 * same 81 of the 88 ordered, 21 of those 22 against 19): at 18 fresh points whose PTX that
 * changes 0.869x the time by geomean, 14 faster by over 2%, 4 slower (to 1.373x at a 6 µs
 * launch), bias_gelu_erf_back fp32 12288x135173 0.740x; at 28 fresh points of heavy-math column
 * passes 0.820x, 22 faster, 5 slower (bench/results/h100-2026-12-06-colpass-overlap.md). */
enum {
	COLPASS_ROWS = 8,
	COLPASS_BASE_REGS = 32,
	COLPASS_RUN = 64,
	COLPASS_SM_MBS = 20640, /* bytes a µs an SM streams */
	COLPASS_ACCESS_NS = 4,
	COLPASS_TURN_NS = 1000,
	COLPASS_LEVEL_NS = 1000,
	COLPASS_OVERLAP = 4 /* the shorter term counts 1/4 */
};
typedef struct {
	int64_t lanes, row_lanes, u, turns, trips, levels;
	/* where rows start misaligned, its SM's modelled ns: the whole (colpass_misaligned_cost),
	 * its HBM bytes' and its element accesses' terms */
	double ns, bytes_ns, access_ns;
} ColpassLanes;
/* each lane count colpass_lanes weighed, in the order tried (explain lists those set aside) */
enum { COLPASS_TRIED = 12 };
typedef struct {
	int n;
	ColpassLanes v[COLPASS_TRIED];
} ColpassTried;
/*
 * A column pass over rows that start misaligned, in more than one turn: each turn walks
 * every row on a strip whose ends fall inside 32-byte sectors, and the strip beside it comes a
 * turn later (or, at the slice's ends, in another CTA's other turn), after the L2 has let the edge
 * go. So every strip of a row reads an HBM access of 64 bytes of each [M,N] array again (an
 * output's partial sectors are filled before they are written) and writes a sector of each output
 * twice. Fitted to ncu on an H200 (bench/results/h100-2026-12-05-colpass-turns.md, call 3):
 * bias_silu_back fp32 2000x20011 (two inputs, one output) read 554 MB where its inputs are 320
 * and wrote 192 where 16-byte accesses wrote 147, at 660 strips a row (132 CTAs, 5 turns); at 1320
 * (264 CTAs, 5 turns) 765 and 231: 59 and 56 bytes read an array a strip edge, 34 and 32 written.
 * In one turn the slices' ends meet in CTAs that walk the rows together: colsum_only at 2000x20011
 * read its inputs' 160 MB exactly. The same 64 bytes an array account for bias_grad, wb_grad and
 * wgrad fp32 at 3 and 5 turns within 4% (bench/results/h100-2026-12-06-colpass-lanes.md).
 */
static inline double
colpass_edge_bytes(const ColpassArrays *a, int64_t M, int64_t strips)
{
	return (double)M * (double)strips * (64.0 * a->n + 32.0 * a->stores);
}
/* A CTA's column pass over misaligned rows at lanes x, in ns (set on x with its two terms): the
 * longer of its SM's HBM bytes (nj positions of 4 columns of every array over M rows, the strips'
 * edges past one turn, at COLPASS_SM_MBS) and its SM's warps' element accesses (4 an array a row's
 * position, each COLPASS_ACCESS_NS, a twentieth more for each instruction an element of the pass),
 * and 1/COLPASS_OVERLAP of the shorter, then each turn's drain and tree (COLPASS_TURN_NS,
 * COLPASS_LEVEL_NS a level). */
static inline double
colpass_misaligned_cost(int64_t nj, int64_t M, int threads, int ctas, const ColpassArrays *a,
			ColpassLanes *x)
{
	double sm = ctas > 1 ? ctas : 1;
	double bytes = (double)M * (double)nj * 4.0 * a->bytes;
	if (x->turns > 1)
		bytes += colpass_edge_bytes(a, M, x->turns);
	double t_bytes = sm * bytes * 1000.0 / COLPASS_SM_MBS;
	double t_access = sm * (threads / 32) * (double)(x->turns * x->trips * x->u) * 4.0 * a->n *
			  COLPASS_ACCESS_NS * (1.0 + a->ops / 20.0);
	double longer = t_bytes > t_access ? t_bytes : t_access;
	double shorter = t_bytes > t_access ? t_access : t_bytes;
	x->bytes_ns = t_bytes;
	x->access_ns = t_access;
	x->ns = longer + shorter / COLPASS_OVERLAP +
		(double)x->turns * (COLPASS_TURN_NS + (double)x->levels * COLPASS_LEVEL_NS);
	return x->ns;
}
/* The whole kernel in the column pass (colpass_whole) gives a CTA COLPASS_MIN_WARPS warps and,
 * where it stores [M,N] outputs or reads element by element, COLPASS_MIN_POS vectors of 4 columns
 * at least, a warp's lanes on consecutive positions of a row. Measured on an H200 (bench/results/
 * h200-2026-12-01-colpass-whole.md, calls 2, 4 and 5): bias_gelu_back (dx stored) at 2 to 4
 * positions a CTA ran 1.06x (bf16 4096x4096, 4 columns an access) to 2.6x (4099x3001, element by
 * element) the row mode's time at the best of 12 grids and warps, at 48 and 947 positions
 * (64x50257, 8x1000003) 0.4-0.7x; bias_grad (its colsum alone) at 4 positions 4 columns an
 * access 0.92-0.99x (bf16 4096x4096), at 1 to 3 element by element (4099x3001) 1.1-2.5x. CTAs
 * of 4 warps ran 1.14-1.25x the time of 16 at 8x1000003 and 1024x131072 (0.80-0.85x at
 * 64x50257). */
enum { COLPASS_MIN_POS = 32, COLPASS_MIN_WARPS = 8 };
/* The column pass that makes the whole kernel over CTAs of COLPASS_MIN_WARPS warps, m of them an
 * SM (min_ctas m, so ptxas caps the thread's registers there), a grid of the SMs times m: set on
 * g, 0; -1 where the columns do not give each CTA a vector of 4. rkc tune's cand p times it at 2
 * and 4 an SM (tools/tune.c); the policy takes COLPASS_CTAS of them where the pass stores element
 * by element and a thread's round trips are few, or stores only its colsums and the model says
 * faster (heuristics/rkc_settle.c, settle_colpass_ctas). */
static inline int
colpass_ctas_config(Config *g, int m, int sms, int64_t N)
{
	int64_t grid = (int64_t)sms * m;
	if (grid > (N + 3) / 4)
		return -1;
	g->num_warps = COLPASS_MIN_WARPS;
	g->min_ctas = m;
	g->grid = grid;
	return 0;
}
/* Whether the column pass reads 4 columns an access: rows start aligned to vec >= 4 (a multiple
 * of 4); else it reads them element by element, four loads where one would do. */
static inline int
colpass_wide(const Config *c, int64_t N)
{
	return c->vec >= 4 && N % 4 == 0 && config_rows_aligned(c, N);
}
/* Whether the column pass's whole round trips run without a branch (codegen/lower_sched.c,
 * colpass_split_trip) and its rows a trip count Facts.colpass_words (colpass_words): it stores
 * [M,N] outputs (stores: plan_colpass_stores) element by element. Where it stores 4 columns an
 * access the same trips ran up to 1.8x the time (bias_gelu_back bf16 8x1000000: ptxas, given
 * every row at once, spilled the GELU chain; bench/results/h200-2026-12-01-oddcols.md). */
static inline int
colpass_split(int stores, const Config *c, int64_t N)
{
	return stores && !colpass_wide(c, N);
}
/* The column pass's slice: the positions (vectors of 4 columns) a CTA of a grid of `ctas` takes,
 * cdiv(cdiv(N, 4), ctas) rounded up to whole 32-byte sectors of its narrowest [M,N] array (isz
 * bytes an element: ColpassArrays.isz), so that where rows start on a sector no two CTAs read one
 * sector and none reads a sector it shares. Measured on an H200 (bench/results/
 * h200-2026-12-05-colpass-slices.md): bias_grad bf16 2048x4096 at 3 CTAs an SM ran 10.4-11.7 µs
 * where the slices were whole sectors (4 and 8 positions) and 14.2-19.2 µs where not (2, 3, 5, 6
 * and 7). Rounded to whole 64-byte HBM accesses instead (slices of 4 or more), 14 points of the
 * column pass ran 0.995-1.009x the time on an H100 (bench/results/h200-2026-12-05-colpass-runs.md,
 * call 3): not taken. */
static inline int64_t
colpass_align(int isz) /* the positions of a sector */
{
	return isz > 0 && isz < 8 ? 8 / isz : 1;
}
static inline int64_t
colpass_slice(int64_t N, int64_t ctas, int isz)
{
	int64_t a = colpass_align(isz);
	int64_t nj = ((N + 3) / 4 + ctas - 1) / (ctas > 0 ? ctas : 1);
	return (nj + a - 1) / a * a;
}
static inline void
colpass_lanes(int64_t nj, int64_t M, int threads, int ctas, int row_words, int isz, int wide,
	      const ColpassArrays *a, ColpassLanes *o, ColpassTried *tried)
{
	int64_t wmin = isz > 0 && 4 * isz < COLPASS_RUN ? COLPASS_RUN / (4 * isz) : 1;
	wmin = wmin < nj ? wmin : nj;
	int64_t umax = (colsum_thread_regs(threads, ctas) - COLPASS_BASE_REGS) /
		       (row_words > 0 ? row_words : 1);
	umax = umax < 1 ? 1 : umax < COLPASS_ROWS ? umax : COLPASS_ROWS;
	*o = (ColpassLanes){.lanes = 1, .row_lanes = threads, .u = 1, .turns = nj, .trips = M};
	if (tried)
		tried->n = 0;
	double best = -1, best_trips = 0;
	for (int64_t w = 1; w <= threads && threads % w == 0; w *= 2) {
		if (w < wmin && 2 * w <= threads && threads % (2 * w) == 0)
			continue;
		ColpassLanes x = {.lanes = w, .row_lanes = threads / w};
		x.u = (M + x.row_lanes - 1) / x.row_lanes;
		x.u = x.u < 1 ? 1 : x.u < umax ? x.u : umax;
		x.turns = (nj + w - 1) / w;
		x.trips = (M + x.row_lanes * x.u - 1) / (x.row_lanes * x.u);
		/* the same trips with the fewest rows each: a trip past M tests every row */
		x.u = ((M + x.row_lanes - 1) / x.row_lanes + x.trips - 1) / x.trips;
		while (((int64_t)1 << x.levels) < x.row_lanes)
			x.levels++;
		double trips = (double)x.turns * ((double)x.trips + x.levels / 4.0);
		double cost = wide ? trips : colpass_misaligned_cost(nj, M, threads, ctas, a, &x);
		if (tried && tried->n < COLPASS_TRIED)
			tried->v[tried->n++] = x;
		if (best < 0 || cost < best || (cost == best && (wide || trips <= best_trips))) {
			best = cost;
			best_trips = trips;
			*o = x;
		}
	}
}
/* colpass_lanes of config c's column pass over a grid of `grid` CTAs, `ctas` an SM: its slice,
 * threads, a row's words (colpass_words) and the narrowest element (ColpassArrays.isz), as the
 * model and the policy take them (codegen's, at the settled config and its own row words:
 * codegen_colpass_lanes, named by colpass_lanes_run). */
void colpass_lanes_of(const Facts *f, const Config *c, int64_t M, int64_t N, int64_t grid, int ctas,
		      ColpassLanes *ln);

static inline void
colsum_layout(const Config *c, int ncolsum, int64_t N, ColsumLayout *l)
{
	/* a grid of bands: a slot a band, whose CTAs write their segments' columns */
	int64_t grid = c->grid > 0 ? c->grid / config_segments(c) : 1;
	l->per_cta = colsum_presum(ncolsum, c, N) ? 1 : c->m_block;
	l->slots = grid * l->per_cta;
	l->cols4 = (N + 3) / 4;
	/* partials kept in the slot while the rows stream (ws_colsums) cover whole chunks, but
	 * under a grid of bands, whose CTAs store up to their segments' ends */
	l->row_bytes = ws_colsums(ncolsum, c, N) && !config_band_grid(c)
			   ? smem_colsum_cols(c, N) * 4
			   : l->cols4 * 16;
}

/* The combine in a launch of `ctas` CTAs (codegen/lower_colsum.c, heuristics/cost.c, the policy's
 * reason): `slices` CTAs, each summing `rows` slots over its `vectors` consecutive (colsum, vector
 * of 4 columns) positions, `lanes` consecutive threads to as many positions of a row: the least
 * power of two that covers the slice, up to the CTA's threads and dividing them (32 * 5 threads
 * take at most 32 lanes); the rest of the CTA's threads, its threads / lanes "row lanes", take the
 * other rows. A warp reads rows of lanes*16 bytes (of 512 from 32 lanes on). */
typedef struct {
	int64_t slices, rows, vectors, lanes;
} ColsumSlices;
static inline void
colsum_slices(const ColsumLayout *l, const Config *c, int ncolsum, int64_t ctas, ColsumSlices *s)
{
	s->slices = ctas;
	s->rows = ctas / config_segments(c) * l->per_cta;
	s->vectors = ((int64_t)ncolsum * l->cols4 + s->slices - 1) / s->slices;
	s->lanes = 1;
	int64_t threads = (int64_t)c->num_warps * 32;
	while (s->lanes < threads && s->lanes < s->vectors && threads % (2 * s->lanes) == 0)
		s->lanes *= 2;
}

/* Whether config c's launch is cooperative, every CTA resident at once or refused: a cooperative
 * row (coop=1), and a grid with sums over rows, whose combine has every CTA wait for the others
 * (but for the one slot, which has no combine, and the column pass, which waits only where it
 * reads row values: colpass_rows). alone: Plan.colsum_alone. */
static inline int
config_cooperative(const Config *c, int ncolsum, int alone, int64_t N)
{
	return c->coop || colpass_rows(ncolsum, alone, c) ||
	       (ncolsum > 0 && c->grid > 0 && !colsum_one_slot(ncolsum, alone, c, N) &&
		!colsum_column(ncolsum, c));
}

/* Whether w warps, not a power of two, split a row of N columns evenly into vectors of vec: one
 * row a CTA of 32 * w threads, each with as many vectors (the policy's odd_warps, rkc tune's
 * cand o). */
static inline int
config_odd_fit(int64_t N, int vec, int w)
{
	return (w & (w - 1)) && N % vec == 0 && (N / vec) % (32 * w) == 0;
}

static inline int
config_tpr(const Config *c)
{
	return c->num_warps * 32 / c->m_block;
}

/* A GPU, read from heuristics/targets/ARCH.json (embedded in the library at build time). */
typedef struct {
	char arch[16]; /* "sm_90" */
	char name[64]; /* "H100 SXM5 80GB" */
	int sms;
	int regs_per_sm, max_regs_thread, max_threads_sm, max_threads_cta, max_ctas_sm;
	int sub_partitions; /* the SM's quarters, each with its scheduler and part of the regs */
	int smem_per_sm, smem_per_cta; /* bytes */
	int cluster_max;	       /* CTAs a cluster may hold (1: no clusters) */
	/* the SMs of each GPC (a cluster's CTAs are placed in one), ngpc of them; 0 where unknown
	 */
	int ngpc, gpc_sms[32];
	/* the CTAs the device holds at once in clusters of c CTAs at k CTAs an SM, as the driver
	 * answers (cuOccupancyMaxActiveClusters x c): cluster_ctas[c][k - 1] for k up to
	 * ncluster_ctas[c], 0 where none are listed (cost_slots: the fewer of it and the GPCs')
	 */
	int ncluster_ctas[17], cluster_ctas[17][32];
	int64_t l1_bytes, l2_bytes; /* L1: per SM, with shared memory */
	double hbm_gbps_spec;
	double hbm_gbps; /* measured copy bandwidth (or an estimate; the file says which) */
	double l2_gbps;
	double mem_latency_ns; /* a loaded DRAM round trip, for Little's law */
	double cta_ns;	       /* a CTA's start, final store and retirement */
	double dispatch_ns;    /* the hardware starts a launch's CTAs this far apart, GPU-wide */
	double shfl_ns, barrier_ns;
	double launch_us, split_us;
	double smem_ns;	   /* a shared-memory round trip */
	double cluster_ns; /* a cluster barrier and the read of the peers' partials */
	double coop_ns;	   /* coop=1: the count in, the wait for the row's CTAs, their partials */
	double issue_ghz;  /* the SM clock under load: each sub-partition issues a warp's
			      instruction a cycle (the cost model's issue term) */
	int fp8_cvt;	   /* 1: fp8 converts in hardware (a cvt a pair), so Facts.issue_ops */
} Target;

int target_load(const char *arch, Target *t, Diag *d);
/* A target file's text, as target_load reads it (arch names it in the diagnostics). */
int target_parse(const char *arch, const char *src, Target *t, Diag *d);
/* The registers a thread may use when ctas CTAs of threads share an SM: ptxas's cap, one
 * sub-partition's register file over the warps of the fullest one, rounded down to 8, at most
 * the per-thread maximum. */
int target_reg_limit(const Target *t, int threads, int ctas);
/* The arch names that have a target file, NULL-terminated. */
const char *const *target_names(void);

/* The modelled cost of one config on one shape (heuristics/cost.c). */
typedef struct {
	int regs;	    /* predicted registers per thread */
	int64_t live_bytes; /* per thread */
	int reg_limit;	    /* min(max per thread, register file / (min_ctas * CTA threads)) */
	int capped;	  /* the fewest registers it fits under a cap (regs_capped, held inputs) */
	int edge_regs;	  /* in regs and capped: a misaligned row's head and tail (regs_edge) */
	int remote_regs;  /* in regs and capped: a grid of clusters' remote addresses */
	int combine_regs; /* the combine of sums over rows (regs_combine), 0 without: a floor */
	int spills;	  /* even the capped count over reg_limit */
	int ctas_per_sm;  /* resident CTAs, limited by threads, registers, the CTA cap and smem */
	const char
	    *limit; /* which of those: "threads", "registers", "the CTA cap" or "shared memory" */
	int64_t ctas;
	int64_t slots; /* the CTAs resident at once: SMs x ctas_per_sm, or whole clusters a GPC */
	const char *slots_by; /* how cost_slots counted them: "over the SMs", "GPC by GPC", ... */
	double waves;	      /* ctas over slots */
	double hbm_bytes, l2_bytes;
	/* the [M,N] bytes count this many times: a warp access's row part under a 32-byte sector
	 * (32 / its bytes), or exactly one on rows of a line or more (ONE_SECTOR); 1 else */
	double sector;
	int span; /* that row part, bytes: min(tpr, 32) x vec x the narrowest load's bytes */
	/* looped passes that read the row again: the share of that re-read the L2 keeps (half the
	 * L2 over the rows in flight, at most 1); 1 where nothing is read again */
	double reread_hit;
	double reread_ws; /* those rows in flight, bytes (0 where nothing is read again) */
	double cta_us;	  /* one CTA's latency: round trips and reductions */
	double bw_gbps;	  /* achieved HBM bandwidth over the run */
	double us;	  /* modelled time, launch included */
	/* cta_us's terms, ns: the first pass's DRAM round trips (persistent: the row's one), the
	 * later passes' waits, the reductions' shuffles and barriers, the cluster exchanges, the
	 * CTA's start/store/retire share, the work counter's ticket and a split CTA's counter */
	double dram_ns, passes_ns, reduce_ns, cluster_ns, fixed_ns, ticket_ns, split_ns;
	/* us's terms: HBM time (Little's law over the waves, at least the CTAs' dispatch and the
	 * last one's latency), L2 time, launch and split combine, the colsum combine's tail or
	 * the column pass after the rows (its HBM bytes streamed in its round trips; mem_us is
	 * then the rows' alone) */
	double mem_us, l2_us, launch_us, combine_us;
	double dispatch_us; /* the hardware's start of every CTA: ctas x dispatch_ns */
	double stream_us;   /* the HBM time alone, by Little's law */
	double issue_us;    /* the SMs' instruction issue: every warp's element slots and blocks */
	int issue_bound;    /* mem_us is issue_us, over the HBM time */
	int dispatch_bound; /* mem_us is the dispatch and the last CTA's latency, over stream_us */
} Cost;

void cost_model(const Facts *f, const Config *c, int64_t M, int64_t N, const Target *t, Cost *out);
/* The CTAs an SM the sums over rows' slices are sized at after the rows (heuristics/cost.c). */
int colsum_ctas(const Config *c, const Cost *o, const Target *t);
/* The lanes codegen takes for the settled config c (codegen_colpass_lanes): its CTAs (the cost
 * model's, the launch's grid), min_ctas and codegen's row words (plan_colpass_row_words). */
void colpass_lanes_run(const Kernel *k, const Facts *f, const Config *c, int64_t M, int64_t N,
		       const Target *t, ColpassLanes *ln, ColpassTried *tried);
/* Rows of at most SHORT_ROW elements: a CTA holds many rows, each a DRAM round trip and a few
 * elements of math a thread. The policy's short-row rules (heuristics/rkc_rank.c) and the cost
 * model's issue term (below) hold for them alone. */
#define SHORT_ROW 256
/* The cost model's issue term (Cost.issue_us), for short rows without sums over rows: every warp
 * of a row block runs its element slots, padding included (a row of 48 columns over 4 threads of
 * 16 elements holds 64 slots, each slot's math run for nothing), at the instructions an element
 * the SM issues (Facts.issue_ops, op_cost's where fp8 converts in software) and one more for its
 * address, and BLOCK_OPS more a row block; each SM issues sub_partitions warp instructions a
 * cycle at issue_ghz. The count an element against SASS (ptxas 13.0, sm_90, 17 kernels at rows
 * of 64 columns, 8 and 16 elements a thread): op_cost's plus 0-3 (jsd 9), fp8_quant's 5 at the
 * hardware's cvt. A row block's own SASS (addresses, shuffles, merges, [M] stores, the loop) is
 * 150-190 instructions a warp; BLOCK_OPS is fitted higher and stands for the block's dependent
 * stalls as well, so the term is a cost the ranking weighs, not a bound: at 350 it sits above
 * the measured time of 619 of the 3150 configs the H200 A/B runs timed (at 150, of 26). The fit:
 * at each of the 1319 points of bench/results/h200-* where two or more configs were timed, the
 * measured time of the config the model ranks first (ties: their geomean) over the best, 1.0471
 * by geomean without the term, 1.0457 at 150, 1.0414 at 350. The policy's picks it moves, old
 * against new on an H200 (bench/results/h200-2026-12-02-issue-term.md): 259 points 0.890x the
 * time, 196 faster by over 2%, 31 slower by 2-27%; rows of 512 columns or more had run 1.04x
 * (16 points) and sums over rows 1.04-1.53x (7 of 8), so neither takes it. */
#define BLOCK_OPS 350
/* A thread's element slots in its row block, every pass's chunks together (looped). */
int64_t issue_slots(const Config *c, int64_t N);
/* The CTAs resident at once at per_sm CTAs an SM: SMs x per_sm, or the CTAs of whole clusters
 * (a cluster's CTAs run together in one GPC, so clusters over 2 CTAs are counted GPC by GPC where
 * the target lists them, and where M rows' blocks fill the SMs never over the driver's count
 * where it lists that; cost_model says what was measured). *by, when not NULL, says which count
 * it took. */
int64_t cost_slots(const Config *c, const Target *t, int per_sm, int64_t M, const char **by);
/* The CTAs an SM cost_model counts, at regs registers a thread instead of its own estimate
 * (explain --ptxas: at the registers ptxas took); *limit names the bound. */
int cost_occupancy(const Facts *f, const Config *c, int64_t N, const Target *t, int regs,
		   const char **limit);
/* A grid of clusters takes at most this many CTAs an SM: the driver launched cooperative grids
 * of as many whole clusters as the target's GPCs hold at 1 and 2 CTAs an SM (clusters of 2 to
 * 16), and refused them at 4 and 5 (clusters of 4, 8 and 16; bench/results/
 * h200-2026-11-29-cluster-grid.md, h200-2026-11-30-cluster-grid.md). */
#define CLUSTER_GRID_PER_SM 2
/* A persistent grid over c sized to one wave: min(row blocks, SMs x the CTAs an SM o holds),
 * where o is c's cost; under a grid of clusters, the CTAs of whole clusters at no more than
 * CLUSTER_GRID_PER_SM an SM. The whole kernel in the column pass (colpass_whole) counts its
 * slices (colpass_min_pos vectors of 4 columns at least), not its row blocks. */
int grid_one_wave(const Cost *o, const Facts *f, const Config *c, int64_t M, int64_t N,
		  const Target *t);

/* The default vector width: 16 bytes for any N (codegen aligns each row's body); size is the
 * widest [N]/[M,N] array's element size. */
int config_vec(const Kernel *k, Type dtype, int64_t N);
int config_elem_size(const Kernel *k, Type dtype);
/* The same, with the first widest array's param index in *widest (-1: none) and the narrowest
 * element of those arrays in *narrowest (either may be NULL). */
int config_elem_sizes(const Kernel *k, Type dtype, int *widest, int *narrowest);
/* The one config validator (heuristics/validate.c), in two levels; each is 0, or -1 with d saying
 * what is wrong and what would be accepted. config_check_emit: what codegen can emit at all, for
 * any target (powers of two, access widths, elements a thread, split only where the plan allows,
 * smem only where a pass reads again, shared memory, the grid). config_check_target: what target
 * t allows (threads a CTA, CTAs an SM, clusters, shared memory a CTA). The policies' picks, forced
 * configs and codegen all pass through it. */
int config_check_emit(const Kernel *k, Type dtype, int64_t M, int64_t N, const Config *c, Diag *d);
int config_check_target(const Kernel *k, Type dtype, int64_t N, const Config *c, const Target *t,
			Diag *d);
/* The most warps a row may span: each reduction result's cross-warp partials take a float a
 * warp of the CTA's static shared memory. */
int config_smem_warps(const Kernel *k);
/* A config's shared memory (heuristics/smem.c). Static: the cross-warp partials when a row spans
 * warps, then, under a dynamic persistent grid, 16 bytes through which thread 0 hands its CTA the
 * next row block (the area's last 16), and under a cluster the partials its CTAs exchange. Dynamic,
 * given at launch: under smem=1 or 2, each [M,N] load a later pass reads again keeps its m_block
 * rows' segments, 16-byte aligned, in instruction order, or under ahead >= 2 the ring of the
 * row blocks in flight (smem_ring_bytes); then the colsum partials
 * (smem_colsums) from colsum_off: smem_colsum_cols floats a row group and colsum, placed as
 * codegen/lower_colsum.c says. A grid with sums over rows has at least smem_combine_bytes there:
 * its combine adds the warps' sums through the dynamic area once every row is done; under the
 * pre-sum at least smem_presum_bytes, the row groups' partial rows, also once the rows are done. */
typedef struct {
	int64_t red_bytes, cluster_bytes; /* static */
	int64_t dyn_bytes;
	int64_t colsum_off; /* where the colsum partials start in the dynamic area */
	int64_t ring_slot; /* ahead >= 2: a slot's bytes (slot s starts at s * ring_slot), else 0 */
} Smem;
/* ahead >= 2: the ring's bytes, at the start of the dynamic area: ahead + 1 slots, each the
 * m_block rows' r_block elements of every [M,N] input (tile_in_bytes: their bytes an element),
 * the widest elements first so that each region starts aligned; 0 for any other config. The
 * models count it so; smem_layout lays the slots out, Smem.ring_slot bytes each. */
int64_t smem_ring_bytes(const Config *c, int tile_in_bytes);
/* Whether c keeps the colsum partials out of registers, for a kernel with sums over rows (ncolsum
 * of them): smem=1 on a persistent row, and always on a looped one (whose chunks a thread cannot
 * carry in registers round the chunk loop), in shared memory or, where they are too many for it,
 * the workspace (ws_colsums). Each thread's partials then take no registers across the rows. */
int smem_colsums(int ncolsum, const Config *c);
/* The columns a row group's partials of one colsum cover there: r_block on a persistent row, the
 * chunks that cover the row's segment (N, or a cluster CTA's share) on a looped one; and their
 * bytes in shared memory in all (0 where they are not kept there). A looped row whose partials
 * alone would take more than MAX_DYN_SMEM keeps them in its workspace slot instead (ws_colsums,
 * declared above): every chunk of every row loads, adds and stores them through L2, slower than
 * shared memory but a mode where there was none. */
int64_t smem_colsum_bytes(int ncolsum, const Config *c, int64_t N);
/* The least dynamic shared memory a grid with sums over rows takes: a vector of 4 floats a thread
 * for its combine (codegen/lower_colsum.c); 0 without them, and under the one slot, which has no
 * combine (colsum_one_slot; alone: Plan.colsum_alone). */
int64_t smem_combine_bytes(int ncolsum, int alone, const Config *c, int64_t N);
/* The facts the register model reads under c: f, or where c keeps the colsum partials in shared
 * memory, a copy in tmp whose persistent peak is held_bytes_smem. */
const Facts *smem_facts(const Facts *f, const Config *c, Facts *tmp);
/* row_off and row_bytes (nins entries each, either may be NULL): per instruction, the byte offset
 * of a kept load's region in dynamic shared memory, or under stash=1 of a stashed value's (its f32
 * elements, after the kept loads' regions), or under the ring (ahead >= 2) of an [M,N] load's
 * region in slot 0 (loads of one input share it), -1 for any other, and its bytes a row. The
 * sizes are for rows of N columns: the kernel is valid for no longer rows. */
void smem_layout(const Kernel *k, Type dtype, int64_t N, const Config *c, Smem *s, int64_t *row_off,
		 int64_t *row_bytes);
/* The narrowest element of the inputs smem keeps under stash (0 or 1), in bytes (4 when it keeps
 * none): smem=2 copies a kept vector with one cp.async of 4, 8 or 16 bytes. */
int smem_kept_min_size(const Kernel *k, Type dtype, int stash);
/* The three arrays packed in one block at 16-byte aligned offsets (red, cluster, dyn into at[]),
 * as the host emulator gives each CTA its shared memory. Returns the block's bytes. */
int64_t smem_block(const Smem *s, int64_t at[3]);

/* Override c's fields from "persistent=1,r_block=2048,m_block=1,num_warps=8,vec=8,split=1,evict=0,
 * min_ctas=1,smem=0,cluster=1,grid=0,dynamic=0,ahead=0,coop=0" (any subset). -1 with d set to a
 * "bad --config" message, which names the key's accepted values, on bad syntax, an unknown key or
 * a value out of the key's range; whether the values suit a kernel, shape and target is
 * config_check's to say. A knob the string sets turns off one it leaves alone that contradicts it:
 * persistent=1 sets smem=0, split over 1 sets cluster=1 and grid=0, cluster over 1 sets split=1 and
 * grid=0, grid over 0 sets split=1 and cluster=1, grid=0 sets dynamic=0 and ahead=0, persistent=0
 * sets ahead=0, and cluster without coop (or a cluster of 1) sets coop=0. */
int config_parse(const char *s, Config *c, Diag *d);
/* Whether --config string s (as config_parse reads it) names key. */
int config_names(const char *s, const char *key);
/* Every knob the same. */
int config_equal(const Config *a, const Config *b);
/* "P r1024 m1 w4 v8" or "L16384 m1 w32 v8 s4 e k2": the short form the golden diff prints (c:
 * cluster CTAs a row; x: cooperating CTAs a row, coop=1; S: rows in shared memory; g: a persistent
 * grid of that many CTAs, gd when dynamic; a: the next row ahead, a2 to a4 that many through the
 * ring; e: the eviction hints are on; k: min_ctas when over 1). */
void config_short(Buf *b, const Config *c);

typedef enum { POLICY_RKC, POLICY_HELION2828 } Policy;
int policy_parse(const char *s, Policy *p); /* 0 on success */
const char *policy_name(Policy p);
/* What config_force moved past the knobs given: restep, the choice's r_block where it was rounded
 * up to whole steps of the forced threads a row x vec; regrid, the choice's persistent grid where
 * it was resized to one wave of the forced knobs' CTAs an SM; each 0 where it did not move. */
typedef struct {
	int64_t restep;
	int regrid;
} Forced;
/* A user's --config over a policy's choice c: the forced knobs replace c's (and a knob they
 * contradict: config_parse, config_restep and config_regrid in heuristics/choose.c), the
 * validator passes, and min_ctas, unless forced, is worked out again for the new knobs by policy
 * p's rule (the choice's could make a forced wider CTA spill). 0; -2 where forced does not parse,
 * -1 where the config is infeasible (d says why); *moved, where not NULL, what moved besides. */
int config_force(Config *c, const char *forced, const Kernel *k, const Facts *f, int64_t M,
		 int64_t N, const Target *t, Policy p, Forced *moved, Diag *d);

#define MAX_REASONS 24
/* The most characters of one reason (or a note the driver adds), with its terminating NUL. */
#define REASON_LEN 1024
typedef struct {
	Config cfg;
	Cost cost;
	int nreasons;
	/* one a knob: the rule, the numbers, the alternative */
	char reasons[MAX_REASONS][REASON_LEN];
} Choice;

/* Pick a config for kernel k on an M x N shape at f's dtype. Returns 0, or -1 with d set when
 * the shape is outside the supported range (shape_check). */
int choose(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t, Policy p,
	   Choice *out, Diag *d);
/* The two policies choose() dispatches to, and the reason writer they share. */
void choose_helion2828(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
		       Choice *out);
void choose_rkc(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
		Choice *out);
/* The rkc policy's candidates best first, as choose_rkc ranks them (the first is its pick), each
 * with its reasons and its min_ctas and evict set; at most max. Returns how many (0 when no
 * config fits the budget). For `rkc tune`, which times them. */
int rkc_candidates(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
		   Choice *out, int max);
/* The rkc policy's pick as its ranking had it, before the settle rule that changes a ranked knob
 * (settle_kept_chunk: a kept row's r_block halved), its other knobs settled for it: for `rkc
 * tune`, which times it beside the pick where it differs. Returns 1, or 0 when no config fits the
 * budget. */
int rkc_as_ranked(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
		  Choice *out);
/* The best candidate each of the rkc policy's dropping rules set aside at the shape (at most
 * RKC_ASIDE), settled as a pick would be; rule[i] names the rule of out[i]. Returns how many. */
enum { RKC_ASIDE = 7 };
int rkc_set_aside(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
		  Choice *out, const char **rule);
/* The batch-invariant mode (heuristics/rkc_invariant.c; docs/heuristics.md, "Batch-invariant
 * mode"): a row's output bits do not depend on M or on where the row sits. The knobs that fix a
 * row's reduction order (persistent, r_block, threads per row, vec, the split or cluster cut) are
 * the rkc policy's pick at a fixed reference row count with vec dividing N; at M the policy ranks
 * only the configs that keep them. choose_invariant: choose() in the mode, -1 with d set for a
 * policy other than rkc, a shape out of range, or no emittable config keeping the order;
 * rkc_invariant_candidates: rkc_candidates in the mode (-1 with d set as choose_invariant). */
int choose_invariant(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
		     Policy p, Choice *out, Diag *d);
int choose_rkc_invariant(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
			 Choice *out, Diag *d);
int rkc_invariant_candidates(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
			     Choice *out, int max, Diag *d);
/* The mode's vector width: the largest power of two that divides N, at most config_vec. */
int rkc_invariant_vec(const Kernel *k, Type dtype, int64_t N);
/* a and b reduce a row in the same order: the same persistent, r_block, threads per row, vec
 * and cut. */
int rkc_same_order(const Config *a, const Config *b);
/* The rkc policy's min_ctas for config c (its other knobs as they are); o gets c's cost at one
 * CTA an SM, from which it plans. */
int rkc_min_ctas(const Facts *f, const Config *c, int64_t M, int64_t N, const Target *t, Cost *o);
void choice_reason(Choice *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Helion's body_live_tiles for the 17 kernels by name, as measured on Helion's own versions of
 * them (docs/heuristics.md), or -1. */
int helion_measured_live(const char *kernel);

#endif
