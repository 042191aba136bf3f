/* Policy rkc's shared vocabulary: its constants, each with the measurements behind it, its
 * candidates, and the rules that its ranking (rkc_rank.c), settle steps (rkc_settle.c), reasons
 * (rkc_explain.c), driver (rkc.c) and batch-invariant mode (rkc_invariant.c) share, each calling
 * only those before it. */
#ifndef HEURISTICS_RKC_H
#define HEURISTICS_RKC_H

#include "heuristics/heuristics.h"

/* Configs within 1% are a tie: prefer no cluster (no exchange between CTAs; then the smaller, then
 * a hardware cluster before a cooperative group of the same size), then persistent (one
 * read), then rows not kept in shared memory, then no split, then no persistent grid (then a
 * static one, then no row ahead: the least machinery, but the row ahead first at the same r_block
 * where the row's math is heavy, AHEAD_MATH_OPS), then, near the CTAs' dispatch bound
 * (DISPATCH_NEAR), fewer CTAs, then fewer chunks (less loop overhead, which the model leaves
 * out), then, for persistent rows a CTA a row block, fewer rows a CTA (rkc_better(), "the rows
 * tie"), then the fewest registers (the most headroom for the register model's error). */
#define TIE 0.01
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
/* The rules' names, in that order, as explain and rkc tune print them. */
extern const char *const rkc_aside_rules[NASIDE];

typedef struct {
	Cand *v;
	int n, cap;
	/* the best candidate drop_streamed_colsums set aside for reading its row again (valid when
	 * reread.c.num_warps > 0), for the smem reason */
	Cand reread;
	Cand aside[NASIDE];
} Cands;

/* A looped row with sums over rows holds its SM with this many warps, in one CTA where it must
 * (drop_streamed_colsums, occupancy_penalty). */
#define COLSUM_WARPS_SM 32

/* The cases of band_grid_fits. */
enum { BAND_NO, BAND_FEW_ROWS, BAND_PARTIALS, BAND_ROWS };

/* What bands that stream their rows hold (rkc_band_streams). */
typedef struct {
	double bytes, l2; /* the rows in flight and the outputs they write; the L2 */
	int64_t words;	  /* a thread's chunk: the words of its [M,N] inputs a pass loads */
	int regs, per_sm; /* the registers a thread has at the grid's CTAs an SM */
} BandHold;

/* settle_colpass's share: the own pass's slots against the inputs both read again. */
enum { COLPASS_SLOTS = 4 };

/* How settle runs: SETTLE_INVARIANT in the batch-invariant mode, SETTLE_NORMAL outside it, and
 * SETTLE_AS_RANKED outside it with the ranked knobs as the ranking had them (rkc_as_ranked). */
enum { SETTLE_INVARIANT, SETTLE_NORMAL, SETTLE_AS_RANKED };

/* rkc_rank.c: the ranking and its rules */
int rkc_dispatch_near(const Cost *o);
int rkc_structure_tie(const Config *a, const Config *b, int heavy);
int rkc_dispatch_tie(const Cand *a, const Cand *b);
int rkc_rows_tie(const Config *c);
int rkc_better(const Cand *a, const Cand *b);
int rkc_within_budget(const Cost *o);
int rkc_lone_colsum(const Facts *f, const Config *c, int64_t N, const Target *t);
int rkc_occupancy_ctas(const Facts *f, const Cost *o, const Config *c, const Target *t, int64_t M,
		       int64_t N, int *spare);
int rkc_over_slots(const Cand *x, const Facts *f, const Target *t, int64_t M, int64_t N);
void rkc_rank_score(Cand *x, const Facts *f, const Target *t, int64_t M, int64_t N);
int rkc_band_grid_fits(const Facts *f, const Config *c, int64_t M, int64_t N, const Target *t,
		       int64_t *row_bytes);
int rkc_band_streams(const Facts *f, const Config *c, int64_t N, const Target *t, BandHold *h);
int64_t rkc_ring_blocks(const Config *g, int64_t M);
const char *rkc_colpass_rows_miss(char *buf, size_t n, const Facts *f, const Config *g, int64_t M,
				  int64_t N, const Target *t);
int rkc_colpass_offered(const Facts *f, const Config *g, int64_t M, int64_t N, const Target *t);
int rkc_kept_row_crowds_sm(const Facts *f, int64_t N, const Target *t);
int rkc_kept_reads_back(const Facts *f);
const Cand *rkc_best_cand(const Cands *cs);
void rkc_enumerate(Cands *cs, const Kernel *k, const Facts *f, int64_t M, int64_t N,
		   const Target *t, int64_t mcap, int vec, int normal);
double rkc_own_slot_bytes(const Facts *f, const Config *c, int64_t N);
int rkc_colpass_settles(const Kernel *k, const Facts *f, const Config *c, int64_t M, int64_t N,
			const Target *t, Config *g, Cost *own, Cost *cp);
int rkc_min_ctas_fits(const Target *t, int threads, int k, int capped);
int rkc_over_squeezed(const Target *t, int threads, int k, int regs);

/* rkc_settle.c */
void rkc_settle(Choice *out, const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
		int mode);

/* rkc_explain.c */
void rkc_explain(Choice *out, const Cands *cs, const Cand *b, const Kernel *k, const Facts *f,
		 int64_t M, int64_t N, const Target *t, int64_t mcap);
void rkc_explain_lanes(Choice *out, const Kernel *k, const Facts *f, int64_t M, int64_t N,
		       const Target *t);

/* rkc.c: the driver */
int rkc_ranked(Cands *cs, const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
	       int64_t mcap, const char *const *first, Choice *out, int max, int mode);
int64_t rkc_m_cap(int64_t M, const Target *t);
Config rkc_fallback(int64_t N, const Target *t, int vec);

#endif
