/* Analysis: the IR's helpers, the reference interpreter, facts, liveness and cost. */
#ifndef RKC_ANALYSIS_H
#define RKC_ANALYSIS_H

#include "analysis/ir.h"

/* >>> the pass plan (analysis/plan.c) */
/*
 * How a looped row is streamed, computed once per kernel by kernel_verify and read by facts, the
 * register and cost models, explain and codegen alike. Pass s < nreduce runs the reductions whose
 * operands the passes before it finished; a sum of exp(t - m), m a max of the same pass, is
 * fused online with that max (up to MAX_ONLINE_SUMS sums a max). A full-width ([N] or [M,N]) store
 * rides with the first pass that knows its value; pass nreduce, the apply pass, exists only for
 * stores that need the last pass's results (or when there is no reduction at all). A persistent row
 * is read once.
 */
/* The online sums one running max carries: codegen keeps a rescaled partial for each. */
#define MAX_ONLINE_SUMS 3

typedef struct Plan {
	int nreduce; /* reduction passes: levels of dependent reductions, online pairs fused */
	int apply;   /* 1 when the apply pass exists */
	int npasses; /* passes over a looped row: nreduce + apply */
	int nred;    /* reduction results (welford counts 3) */
	int nonline; /* sums fused online with their max */
	int nstores; /* full-width stores */
	int ncolsum; /* sums over rows (colsum): each rides with a pass like a store */
	/* 1 when no colsum's operand needs a row reduction (every colsum rides with pass 0): the
	 * colsums can then be summed in a pass of their own over the rows (colsum_late,
	 * heuristics.h), evaluating need_colsum: the colsums and the rdim instructions their
	 * operands need (computed for every kernel with colsums; NULL without) */
	int colsum_alone;
	char *need_colsum;
	/* Where colsum_alone: the rows' instructions once the colsums leave them (their own pass
	 * or the column pass), the cone of every store and row reduction but the colsums'. A load
	 * only the colsums read is not among them: the rows do not read it (NULL without) */
	char *need_rows;
	/* 1 when the kernel is element-wise but for its colsums: colsum_alone, no reduction over
	 * the row, and every store a colsum's or an [M,N] one. The column pass (colpass=1) then
	 * makes the whole kernel, stores too, and the rows do nothing (colpass_whole,
	 * heuristics.h). need_colpass: the column pass's instructions, need_colsum and, under
	 * colsum_whole, the [M,N] stores with their cones (NULL where colsum_alone is 0) */
	int colsum_whole;
	char *need_colpass;
	/* Where a colsum needs a row reduction (colsum_alone 0): the reduction results its cone's
	 * [M] operands are made from, nrowval values (rowval: their value indices). Under the
	 * column pass (colpass=1) the rows write them to the workspace and the column pass reads
	 * them back, after a wait for the grid; need_colsum is the cone there too. */
	int nrowval;
	int *rowval;
	/* 1 when the apply pass carries nothing but colsums: under the column pass a looped row
	 * makes one pass fewer (codegen's apply pass is then empty) */
	int apply_colsums;
	int split_ok; /* one pass of plain reductions and no full-width store: a row may split */
	int row_exchanges; /* the cross-thread exchanges of a persistent row (codegen's lazy
			    * order: an online pair is two, a row value between reductions one) */
	int *exchange;	   /* per instruction: the exchanges a persistent row makes before it */
	/* A persistent row's tail: the instruction whose wait makes the row's last exchange, where
	 * nothing after it reduces (so only element-wise work, row values and stores are left) and
	 * the kernel sums no columns; else -1. steps=1 lowers it a vector at a time. */
	int tail;
	int tail_loads; /* the tile loads the tail reads first (a weight, a bias) */
	int *lvl;	/* per value: the passes that must finish before it is known */
	int *pass;	/* per instruction: a reduction's pass, or the pass a full-width store or a
			 * colsum rides with; else -1 */
	int *fused; /* per instruction: for a sum fused online, its max's instruction; else -1 */
	int *last_read;	 /* per instruction: for a load, the last pass that reads it; else -1 */
	int *first_read; /* per instruction: for a load, the first pass that reads it; else -1 */
	int nreread;	 /* [M,N] loads that a later looped pass reads again (smem=1 keeps them) */
	char *need;	 /* per pass, nins + 1 flags: see plan_need */
	/* stash=1 (rows kept on chip): the f32 [M,N] values the last reduction pass computes and
	 * the apply pass reads back from shared memory instead of recomputing them (see
	 * assign_stash); nstash of them, or none where that would spare no transcendental */
	char *stash; /* per instruction: 1 for a stashed value's */
	int nstash;
	int stash_spared_ops; /* the instructions the apply pass no longer runs */
	int stash_spared;     /* of those, transcendentals and divisions (costly, plan.c) */
	char *need_stash;     /* the apply pass's need under stash=1 (its body chunks) */
	int *stash_last_read; /* last_read, with the apply pass under stash=1 */
	/* The read-back (looped rows): a value the kernel stores to an [M,N] output in one pass
	 * and a later pass needs is loaded back as stored, from that output or, where the row is
	 * kept on chip, from shared memory, instead of recomputed from its inputs (see
	 * assign_reload). */
	int *reload;	       /* per instruction: 1 + the store of its value, where some later
				* pass loads it back; else 0 */
	char *reload_at;       /* per pass, nins + 1 flags: the values the pass loads back */
	char *need_reload;     /* per pass, nins + 1 flags: its need, cut at those values */
	int *reload_last_read; /* last_read with the cut needs */
	int nreload;	       /* values loaded back in some pass; 0: no read-back */
} Plan;

void order_stores(Kernel *k);	/* analysis/order.c, before the plan */
void rewrite_kernel(Kernel *k); /* analysis/rewrite.c, after order_stores */
const Plan *plan_build(const Kernel *k, Arena *a);
/* The instructions pass s evaluates per chunk: its stores and the rdim instructions that its
 * reductions' operands (for an online pair, the max's operand and the sum's t) and its stores'
 * values need; not the reductions themselves. NULL for a pass that does not exist. */
const char *plan_need(const Plan *p, const Kernel *k, int pass);
/* plan_need for a body chunk of a config with stash (0 or 1): under stash=1 the apply pass
 * evaluates need_stash. */
const char *plan_need_body(const Plan *p, const Kernel *k, int pass, int stash);
/* A load's last pass, or -1: last_read, or stash_last_read under stash=1. */
int plan_last_read(const Plan *p, int i, int stash);
/* The bytes an element the read-back spares over the later passes of a looped row at dtype: the
 * [M,N] input bytes its cut needs no longer read, less the output bytes loaded back (<= 0: no
 * read-back). */
int plan_reload_saves(const Plan *p, const Kernel *k, Type dtype);
/* Whether a looped row at dtype reads back (plan_reload_saves over 0, and no stash: a kernel with
 * a stash keeps its plain plan), from global memory or, kept on chip, from shared memory. */
int plan_reads_back(const Plan *p, const Kernel *k, Type dtype);
/* The last pass that reads each load in a looped row at dtype: stash_last_read under stash=1,
 * reload_last_read where the row reads back (plan_reads_back), else last_read. */
const int *plan_last_reads(const Plan *p, const Kernel *k, Type dtype, int stash);
/* How many times the emitted code streams the row: npasses when looped; once when persistent. */
int plan_streams(const Plan *p, int persistent);
/* Why a row may not split, as "the kernel has ...": "a full-width ([N] or [M,N]) output", ... */
const char *plan_no_split(const Plan *p);
/* A store to an [N] or [M,N] output made per row (not a colsum's, made once at the end). */
int plan_is_tile_store(const Kernel *k, const Instr *in);
/* Whether the column pass stores [M,N] outputs (colsum_whole with any). */
int plan_colpass_stores(const Plan *p, const Kernel *k);
/* The 32-bit registers one row of the column pass holds for a thread's 4 columns at dtype
 * (need_colpass) where it goes element by element, its loads in flight: a register an element
 * of each [M,N] input, each [M] input's word or two (a row loads all of them as it is placed),
 * and the row's 64-bit address in each [M,N] array it reads or writes. 0 without a column
 * pass. */
int plan_colpass_words(const Plan *p, const Kernel *k, Type dtype);
/* The words a row of the column pass takes that codegen sizes its rows a trip by (colpass_lanes;
 * codegen/lower_sched.c): where it stores [M,N] outputs element by element (split,
 * colpass_split) plan_colpass_words; else 4 columns of each [M,N] input it loads (their bytes an
 * element) and a word of each other input it loads. The model counts its own (colpass_words,
 * heuristics.h). */
int plan_colpass_row_words(const Plan *p, const Kernel *k, Type dtype, int split);
/* The [M,N] arrays the column pass reads or writes (need_colpass): how many, how many of them it
 * stores, their bytes an element together at dtype (what a row's column moves), the bytes an
 * element of the narrowest (isz: its slices start on that array's 32-byte sectors,
 * colpass_slice), and the instructions an element of its cone (op_cost). Zeros without one
 * (analysis/facts.c). */
typedef struct {
	int n, stores, bytes, isz, ops;
} ColpassArrays;
void plan_colpass_arrays(const Plan *p, const Kernel *k, Type dtype, ColpassArrays *a);
/* Whether a persistent row may put in off to its next exchange when it waits on a reduction: it
 * reads and writes row values only (no reduction, colsum or [M,N]/[N] store or result). */
int plan_row_deferrable(const Kernel *k, const Instr *in);
void plan_print(Buf *b, const Kernel *k, const Plan *p);
/* <<< the pass plan */

/* >>> facts and liveness (analysis/facts.c, analysis/liveness.c) */
#define MAX_PASSES 8

/* What the heuristics need to know about a kernel at one storage dtype. "Tile" loads read [M,N]
 * inputs, "vector" loads [N] inputs. Byte counts are per row element (per element of N). */
typedef struct {
	Type dtype;
	int nloads, nstores; /* load and gather instructions; store instructions */
	int ntile_loads, nvec_loads;
	int ntile_stores;   /* [M,N] outputs */
	int load_isz;	    /* narrowest load feeding a reduction (Helion's input_load_itemsize) */
	int compute_isz;    /* input of the last reduction (Helion's itemsize, "last wins") */
	int tile_in_bytes;  /* [M,N] inputs, once each */
	int vec_in_bytes;   /* [N] inputs, once each */
	int tile_out_bytes; /* [M,N] outputs */
	int row_in_bytes, row_out_bytes; /* [M] inputs (gathers count one element) and outputs */
	int row_reread;	       /* a load feeds two reductions, or a reduction and a store */
	int full_width_output; /* some output is [M,N] */
	int nreds;	       /* reduction instructions */
	int levels;	       /* dependent reduction levels, online max/sum pairs fused */
	int row_exchanges;     /* the cross-thread exchanges a persistent row makes (the plan's) */
	int online;	       /* sums fused with their max into one online pass */
	int passes;	       /* passes over the row when looped: levels, plus one to apply */
	int colpass_passes;    /* the same under the column pass (Plan.apply_colsums: one fewer) */
	int pass_tile_bytes[MAX_PASSES]; /* [M,N] input bytes per element each looped pass reads */
	int reload_saves; /* plan_reload_saves at dtype: over 0, the passes read back (above) */
	int pass_vec_bytes[MAX_PASSES];
	int pass_words[MAX_PASSES];    /* 32-bit words per element of the chunk a pass holds */
	int pass_partials[MAX_PASSES]; /* scalar partials a thread carries through the pass */
	int ops; /* persistent: instructions a thread spends an element (op_cost) */
	int pass_ops[MAX_PASSES]; /* looped: the same in each pass's chunk */
	int split_ok;		  /* reductions combinable in one pass and no [M,N] output */
	int colsums;		  /* sums over rows: each an [N] partial held across rows */
	int colsum_alone;	  /* Plan.colsum_alone: the colsums can have a pass of their own */
	int colsum_tile_bytes;	  /* that pass's [M,N] input bytes an element (Plan.need_colsum) */
	int rows_tile_bytes;	  /* the rows' [M,N] input bytes an element once the colsums
				   * leave them (Plan.need_rows; tile_in_bytes where they cannot) */
	int colsum_rows_bytes;	  /* of colsum_tile_bytes, those the rows read too (all where
				   * the colsums cannot leave them) */
	int colsum_only;	  /* colsum_alone, and every store a colsum's: rows do nothing */
	int colsum_whole;	  /* Plan.colsum_whole: the column pass can make every store */
	int colsum_isz;		  /* the narrowest of that pass's [M,N] inputs, bytes */
	int colpass_stores;	  /* plan_colpass_stores */
	int colpass_words;	  /* plan_colpass_words */
	int kept_bytes;		  /* [M,N] loads a later looped pass reads again, an element (with
				   * the read-back: those it reads still, and the values it loads
				   * back, at their outputs' sizes) */
	int stashes;		  /* the values stash=1 keeps for the apply pass (Plan.nstash) */
	int stash_spared, stash_spared_ops; /* Plan's: what the apply pass then no longer runs */
	int stash_kept_bytes; /* kept_bytes under stash=1, with the stashed values' 4 bytes each */
	int red_results;      /* reduction results (welford counts 3): partials to combine */
	int helion_live;      /* Helion's body_live_tiles, counted on our body */
	int held_tiles;	      /* persistent: rdim values held at the peak (our model) */
	int held_words;	      /* the same in 32-bit words per element */
	int held_bytes;	      /* persistent: register bytes per element at the peak, x4, under a
			       * register cap (regs_capped) */
	int held_spare;	      /* the same where ptxas has registers to spare (regs_predict) */
	int held_bytes_smem;  /* the same with the colsum partials in shared memory (smem=1) */
	int held_spare_smem;  /* held_spare so (smem=1) */
	int held_bytes_steps; /* held_bytes with the tail a vector at a time (steps=1, Plan.tail) */
	int held_spare_steps; /* held_spare so (steps=1) */
	int folded; /* every load folds into a reduction as it arrives (heuristics.h FOLD_VECS) */
	int loop_bytes;		    /* looped: the same for the widest pass's chunk */
	int pass_bytes[MAX_PASSES]; /* looped: the same for each pass's chunk */
	int row_regs;		    /* [M] values and scalar params live while a reduction runs */
	int row_peak;	 /* the most live anywhere (an [M] epilogue runs without tiles) */
	int nptrs;	 /* array params: a 64-bit address each */
	char chain[160]; /* the reduction chain, e.g. "max+sum (online) -> sum -> apply" */
	/* ops and pass_ops as the SM issues them where fp8 converts in hardware (sm_90 and later:
	 * a cvt a pair, not op_cost's integer steps): the cost model's issue term */
	int issue_ops, pass_issue_ops[MAX_PASSES];
	ColpassArrays colpass_arrays; /* plan_colpass_arrays */
} Facts;

void facts_compute(const Kernel *k, Type dtype, Facts *f);

/* Helion's body_live_tiles walk (PR #2828; docs/heuristics.md): peak count of live [N]/[M,N]
 * values, in body order. */
int live_helion(const Kernel *k);
/* Our walk: the peak number of rdim values a persistent thread must hold across a reduction
 * (loads sunk to their first use, values recomputable from held ones not held); *words gets the
 * same peak in 32-bit words per element. */
int live_held(const Kernel *k, Type dtype, int *words);
/* The register model's bytes per element a thread holds, in quarter bytes: f->held_bytes
 * (persistent, the whole body) and f->loop_bytes (looped, the widest pass's chunk). */
void live_bytes_model(const Kernel *k, Facts *f);

/* The per-thread register model. ept: elements of each tile a thread holds (persistent: r_block
 * over threads per row) or streams per chunk (looped: r_block over threads per row); vec: the
 * elements one access moves. */
enum { REG_BASE = 16, REG_LOOP = 4 }; /* a thread's scalars; a loop's state */
int64_t live_bytes_thread(const Facts *f, int persistent, int64_t ept, int vec);
int regs_predict(const Facts *f, int persistent, int64_t ept, int vec);
/* The fewest registers ptxas fits the same thread in under a register cap without spilling: a
 * config spills when this exceeds its limit (regs_predict may exceed the limit and still fit). */
int regs_capped(const Facts *f, int persistent, int64_t ept, int vec);
/* The registers a persistent thread adds where its rows start misaligned (N not a multiple of
 * vec): the edge elements of the head and tail, held beside its body of ept elements, tpr
 * threads to a row (docs/regmodel.md, "Misaligned rows"). */
int regs_edge(const Facts *f, int64_t ept, int vec, int tpr);
/* The registers of the combine of sums over rows, a floor under the row's count: `loads` partial
 * rows of 16 bytes loaded a round trip into `turns` sums; the fewest under a cap where capped. */
int regs_combine(int loads, int turns, int capped);
/* <<< facts and liveness */

/* >>> reference interpreter (analysis/interp.c) */
/* Runs k on the CPU in float64, row by row, as the oracle for every GPU check. bufs is indexed by
 * param: an input's values (row-major M*N for [M,N], M for [M], N for [N]; integers as doubles),
 * an output's caller-allocated array of the same sizing, a scalar param's value in bufs[p][0]
 * (NULL for its default). Floats stored into a T output stay doubles. Returns 0, or -1 with d set
 * (a gather index outside [0, N), a missing array). Memory: N doubles per live [M,N] value. */
int interp_run(const Kernel *k, int64_t M, int64_t N, double **bufs, Diag *d);
/* <<< reference interpreter */

#endif
