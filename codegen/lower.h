/* The lowering's private header: the Lower state and what the codegen/lower*.c files share. */
#ifndef RKC_LOWER_H
#define RKC_LOWER_H

#include <llvm-c/Core.h>

#include "codegen/codegen.h"

/* Reduction kinds: what a per-thread partial holds and how two partials combine. */
/* K_WELF2: welford's first pass over a held row, a plain sum (red_new_held). */
enum { K_SUM, K_MAX, K_MIN, K_WELF, K_MAXSUM, K_WELF2 };

/* A partial's components: welford's three, or a running max and its online sums. */
#define RED_COMP (1 + MAX_ONLINE_SUMS > 3 ? 1 + MAX_ONLINE_SUMS : 3)

typedef struct {
	int ins;		   /* the reduction (for K_MAXSUM, the max) */
	int sums[MAX_ONLINE_SUMS]; /* K_MAXSUM: the fused sums, in program order */
	int nsums;
	int kind;
	int ncomp;
	LLVMValueRef acc[RED_COMP];
} Red;
typedef LLVMValueRef RedPhi[RED_COMP]; /* a reduction's partials carried round a loop */

/* One chunk of a row as one thread sees it: nvec vectors of vec elements (E in all). The body
 * chunk's vector j starts at col + j*tpr*vec; the edge chunk (the misaligned head and the tail of
 * a row, vec 1) names each element's column in vcol. */
typedef struct {
	LLVMValueRef col;    /* i64: the thread's first column; vector j starts j*tpr*vec later */
	LLVMValueRef *vcol;  /* edge chunk: per element, its column; else NULL */
	LLVMValueRef *valid; /* per vector: the row is real and the vector is inside the segment */
	LLVMValueRef **el;   /* per value: its E per-thread elements in this chunk */
	int vec, nvec, E;
	int elems; /* 1: each vector goes element by element from its first element's address */
	int whole; /* every vector lies in the body: its loads read unmasked (rows past M read
		    * row M-1's columns, place_row), valid masks rows past M alone */
} Chunk;

/* One kernel being lowered. lower_kernel and its prologue (lower.c) fill in every group but the
 * last, which changes as the passes are lowered. */
typedef struct {
	/* inputs */
	const Kernel *k;
	const Compile *c;
	const Plan *plan; /* k->plan */
	Arena *a;
	Diag *d;
	int err;  /* a diagnostic was reported */
	int host; /* for the host CPU and the emulator, not NVPTX */

	/* config constants: fixed for the whole kernel */
	int tpr, wpr, vec, E, nvec, split;
	int has_ws;	    /* the kernel takes a workspace: split rows or the work counter */
	int clc;	    /* the dynamic grid's next block by cluster launch control (sm_100) */
	int nseg;	    /* segments a row is cut into: split or cluster CTAs, else 1 */
	int cluster;	    /* CTAs a cluster, 1 for none */
	int coop;	    /* the cluster is a cooperative group: it exchanges through ws */
	int64_t *row_off;   /* smem: per instruction, a kept load's region in dyn, else -1 */
	int64_t *row_bytes; /* smem: per instruction, a kept load's bytes a row */
	int shifted; /* N need not be a multiple of vec: rows start misaligned, see body_bounds */
	int stash;   /* stash=1 on a looped row kept on chip: Plan.stash's values go through smem */
	int reload;  /* a looped row with the read-back (plan_reads_back): from global memory, or
		      * kept on chip, from shared memory */
	/* ahead >= 2: the ring of the row blocks in flight (lower_sched.c): row_off holds each
	 * [M,N] load's region in slot 0, ring_at (i64) the bytes from slot 0 to the slot that
	 * region_ptr, keep_async and the body's loads address now; 0 and NULL without it */
	int ring;
	LLVMValueRef ring_at;

	/* LLVM handles */
	LLVMContextRef cx;
	LLVMModuleRef mod;
	LLVMBuilderRef b;
	LLVMValueRef fn;
	LLVMTypeRef f32, i8, i32, i64, ptr1;
	LLVMTypeRef *pt; /* the kernel's parameter types */
	int np;
	unsigned md_inv; /* the invariant.load metadata kind, with md_empty its node */
	LLVMValueRef md_empty;
	LLVMValueRef smem;     /* the shared words of red_cross, when a row spans several warps */
	LLVMValueRef clu;      /* cluster > 1: the shared words the cluster's CTAs exchange */
	LLVMValueRef dyn;      /* smem=1: the dynamic shared memory that keeps rows */
	LLVMValueRef clc_smem; /* clc: the 16-byte response, then the mbarrier */

	/* kernel values, made once in the entry block */
	LLVMValueRef *parg;   /* per param: the kernel argument */
	LLVMValueRef *stride; /* per param: an [M,N] array's row stride argument, else NULL */
	LLVMValueRef M, N, Nf, ws;
	/* the workspace from which the colsums' regions lie at their compiled M's offsets
	 * (lower.c's prologue: ws moved by what the regions before them grow at the launch's M) */
	LLVMValueRef wsc;
	LLVMValueRef policy[2]; /* evict=1: the L2 policies evict_first and evict_last */

	/* thread geometry: the thread's row, its lane within the row and its segment */
	LLVMValueRef cta;    /* i64 ctaid.x */
	LLVMValueRef band;   /* i64 ctaid.x / nseg: the CTA's row block, a grid's first, its slot */
	LLVMValueRef rblock; /* i64: the row block place_row placed last */
	LLVMValueRef lane, lofs, lane32, warp, grp, seg, row, rowok, seg_start, seg_end;
	LLVMValueRef rowc; /* place_row's row, or M-1 past M: the row every load reads */
	/* per param: where an [M,N] array's row starts (place_row), else NULL */
	LLVMValueRef *rowoff;
	LLVMValueRef body_lo, body_hi; /* the aligned whole vectors of the segment */

	/* per-pass state: what the lowering updates as it goes */
	LLVMValueRef *uni;     /* per value: its value when it is the same for the whole row */
	LLVMValueRef **el;     /* the current chunk's el */
	char *done;	       /* per instruction: lowered (uniform instructions) */
	int smem_next;	       /* the next free slot of smem, num_warps words each */
	int clu_next;	       /* the next free slot of clu, m_block words each */
	int coop_rounds;       /* coop: the exchanges lowered so far (each a counter round) */
	LLVMBasicBlockRef end; /* the exit that threads not writing row outputs branch to */
	int pass;	       /* looped: the pass being lowered */
	const int *last_read;  /* looped: per load instruction, the last pass that reads it */
	/* a persistent grid: per instruction, a load's raw vectors for the body chunk, issued
	 * before the row's code (the next row ahead, an [N] input held across rows), else NULL */
	LLVMValueRef **given;
	/* ahead=1: per instruction, an [M] load's raw value for the block, issued with the next
	 * block's [M,N] loads a block ahead, else NULL */
	LLVMValueRef *given_row;

	/* under a grid that holds its [N] inputs: they are unpacked in each block (and in each copy
	 * of it under --regions' sampling; lower_load_tile), so that no unpacked copy is held
	 * across the loop */
	int held_in_block;

	/* colsum: per instruction, a colsum's E partials of the thread's columns, else NULL */
	LLVMValueRef **csum;
	/* the colsum partials' area of shared memory (smem=1 on persistent rows, and looped rows;
	 * csum is NULL until colsum_finish reads them back), else NULL; under csum_ws, the row
	 * group's slot of the first colsum in the workspace, where the partials stay */
	LLVMValueRef csum_smem;
	int csum_ws;
	/* colsum_late: the rows' passes leave the colsums out; after the rows they are summed in
	 * a pass of their own (lower_sched.c), in registers (L->csum), a chunk at a time */
	int csum_late;
	/* colsum_one_slot: the partials are the sums, stored to the outputs (no combine) */
	int csum_one;
	/* colsum_column: the rows' passes leave the colsums out; after the rows each CTA sums a
	 * slice of the columns over every row (colsum_column_pass) */
	int csum_cols;
	/* a looped row: the index (i64) of the chunk being lowered, whose partials colsum_local
	 * adds to, else NULL */
	LLVMValueRef csum_chunk;

	/* --regions: the stamps' state (regions.c), else NULL */
	struct LowerRegions *rg;
} Lower;

/* >>> LLVM builder helpers (lower_build.c) */
/* f32, i32 and i64 constants. */
LLVMValueRef cf(Lower *L, double v);
LLVMValueRef ci32(Lower *L, long long v);
LLVMValueRef ci64(Lower *L, long long v);
/* Float add, sub and mul, allowed to contract into fma. */
LLVMValueRef ffadd(Lower *L, LLVMValueRef x, LLVMValueRef y);
LLVMValueRef ffsub(Lower *L, LLVMValueRef x, LLVMValueRef y);
LLVMValueRef ffmul(Lower *L, LLVMValueRef x, LLVMValueRef y);
/* x*y + z, rounded once. */
LLVMValueRef ffmadd(Lower *L, LLVMValueRef x, LLVMValueRef y, LLVMValueRef z);
/* A call of intrinsic name (overloaded on ovl unless NULL); on the host, llvm.nvvm.X is emu.X. */
LLVMValueRef intr(Lower *L, const char *name, LLVMTypeRef ovl, LLVMValueRef *args, int nargs);
/* llvm.maxnum and llvm.minnum on f32. */
LLVMValueRef fmax2(Lower *L, LLVMValueRef x, LLVMValueRef y);
LLVMValueRef fmin2(Lower *L, LLVMValueRef x, LLVMValueRef y);
/* exp(x) and 1/x, approximate. */
LLVMValueRef fexp(Lower *L, LLVMValueRef x);
LLVMValueRef fexp_sub(Lower *L, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef frcp(Lower *L, LLVMValueRef x);
/* exp(m - M), exactly 1 when m == M. */
LLVMValueRef rescale(Lower *L, LLVMValueRef m, LLVMValueRef M);
/* Type t in memory, and conversions between it and registers (bf16 and f16 as f32, bool as i1). */
LLVMTypeRef storage_type(Lower *L, Type t);
LLVMValueRef from_storage(Lower *L, Type t, LLVMValueRef v);
/* Two fp8 bytes (an i16, the first low) as two f32, in one conversion: only where f8_hw. */
void from_storage_pair(Lower *L, Type t, LLVMValueRef pair, LLVMValueRef *out);
LLVMValueRef to_storage(Lower *L, Type t, LLVMValueRef v);
/* On the host: defines __truncsfbf2 in the module, which the x86 back end calls for what it
 * rounds to bf16 itself (a bf16 constant) where the CPU lacks AVX512-BF16; no library the
 * emulator loads need have it. */
void host_truncsfbf2(Lower *L);
/* Two f32 values to a bf16, f16 or fp8 pair (<2 x T>, lo first), in one conversion where the
 * arch has it. */
LLVMValueRef to_storage_pair(Lower *L, Type t, LLVMValueRef lo, LLVMValueRef hi);
/* 1: fp8 type t is loaded and stored through the hardware's paired conversions (sm_90 on, not
 * the emulator). */
int f8_hw(Lower *L, Type t);
/* An elementwise op on operands already in registers. */
LLVMValueRef apply_op(Lower *L, const Instr *in, LLVMValueRef *x);
/* A loop of i from 0 to n (i64) whose body is made by the caller between for_open and
 * for_close; the builder is left in the body, then after the loop. */
typedef struct {
	LLVMBasicBlockRef head, done;
	LLVMValueRef i;
} For;
For for_open(Lower *L, int64_t n, const char *name);
void for_close(Lower *L, For *f);
/* The launch's row blocks, cdiv(M, m_block) (i64). */
LLVMValueRef row_blocks(Lower *L);
/* The row blocks a persistent grid walks at once (i64): gridDim.x, or its clusters under a grid
 * of clusters (lower_sched.c). */
LLVMValueRef grid_bands(Lower *L);
/* A compare of the column with a row value: which operand is the column, else -1; then the
 * other side as col_bound gives it, and both in i32. */
int col_compare(Lower *L, const Instr *in);
LLVMValueRef col_bound(Lower *L, LLVMValueRef v);
/* Element e's column in the row (i64): what the col instruction gives at element e. */
LLVMValueRef chunk_col(Lower *L, const Chunk *ch, int e);

/* >>> chunks, memory access and the tile and uniform instructions (lower_mem.c) */
/* Operand a: element e of the current chunk when it varies along N, else the row's value. */
LLVMValueRef operand(Lower *L, const Arg *a, int e);
/* Value v has N in its shape. */
int is_tile(Lower *L, int v);
/* The body chunk at column base (masked past the body), a whole one (every column in the body:
 * masked on rows past M alone), and the edge chunk (head and tail of a misaligned row). */
Chunk chunk_at(Lower *L, LLVMValueRef base);
Chunk chunk_whole(Lower *L, LLVMValueRef base);
Chunk chunk_edge(Lower *L);
/* Sets body_lo and body_hi when rows start misaligned; row_n is row*N, which every array's row
 * start is congruent to modulo vec (the stride rule, config_stride_modulus). */
void body_bounds(Lower *L, LLVMValueRef row_n);
/* Makes the evict=1 L2 policies at the top of the kernel. */
void make_policies(Lower *L);
/* A full-width store over the chunk. */
void store_tile(Lower *L, const Instr *in, const Chunk *ch);
/* A tile instruction over the chunk: its E elements into ch->el. */
void lower_tile(Lower *L, const Instr *in, const Chunk *ch);
/* A load's raw vectors over chunk ch (masked vectors read as zero), as lower_tile issues them;
 * for L->given, over a body chunk. */
LLVMValueRef *load_raw(Lower *L, const Instr *in, const Chunk *ch);
/* stash=1: a stashed value's elements over body chunk ch stored in its region of shared memory
 * (masked vectors are not), and read back into ch->el (masked vectors read as zero). */
void stash_store(Lower *L, const Instr *in, const Chunk *ch);
void stash_load(Lower *L, const Instr *in, const Chunk *ch);
/* The read-back (Plan.reload): the value of in over the chunk loaded from the [M,N] output that
 * store st wrote it to in an earlier pass. */
void reload_tile(Lower *L, const Instr *st, const Instr *in, const Chunk *ch);
/* The read-back of a row kept on chip: the value of in over the chunk, stored by st, also in its
 * place in shared memory, in st's output type, for the later passes' reload_tile. */
void keep_value(Lower *L, const Instr *st, const Instr *in, const Chunk *ch);
/* smem=2: cp.async copies of the body chunk's vectors of every kept load to their places in
 * shared memory (masked vectors are not copied); the caller commits and waits for them. */
void keep_async(Lower *L, const Chunk *ch);
/* An [M] load's raw value at the thread's row (row 0 past M), as lower_uniform issues it; for
 * L->given_row. */
LLVMValueRef load_row_raw(Lower *L, const Instr *in);
/* A row-uniform instruction, into L->uni. */
void lower_uniform(Lower *L, const Instr *in);
/* Every row-uniform instruction whose operands are known, in program order. */
void lower_ready_uniform(Lower *L);

/* >>> reductions and combining across threads (lower_red.c) */
/* r's partial set to its kind's identity. */
void red_identity(Lower *L, Red *r);
/* A reduction of instruction i, at its identity. */
Red red_new(Lower *L, int i);
/* The same over a row held in registers (persistent): welford in two exact passes where
 * welford_two_pass says so. */
Red red_new_held(Lower *L, int i);
/* Folds the thread's elements of the chunk into r's partial. */
void red_local(Lower *L, Red *r, const Chunk *ch);
/* A whole warp's shuffle of an f32: name is llvm.nvvm.shfl.sync.{bfly,idx}.f32, lane its operand.
 */
LLVMValueRef shfl(Lower *L, const char *name, LLVMValueRef v, LLVMValueRef lane);
/* Combines the partials of a row's threads (shuffles, then shared memory); all end equal. */
void red_cross(Lower *L, Red *rs, int n);
/* red_cross over a held row whose chunks are chs; welford's second pass, where it has one. */
void red_cross_held(Lower *L, Red *rs, int n, const Chunk *chs, int nch);
/* The row values of finished reductions, into L->uni. */
void red_finish(Lower *L, Red *rs, int n);
/* Stores of [M] outputs. */
void store_rows(Lower *L);
/* Branches to the row's lane 0 for the row outputs (under a cluster, in the row's first CTA); the
 * other threads go to L->end. */
void if_lane0_row(Lower *L);
/* Under a cluster, keeps every CTA until the last has read its partials: a CTA's shared memory
 * goes when it exits; under a cooperative one, the last CTA of the row block to leave zeroes its
 * counters. Nothing otherwise. */
void cluster_done(Lower *L);
/* Thread 0 counts its CTA in at u32 word `word` of the workspace and waits until the count
 * reaches want; the whole CTA goes on after, seeing what the CTAs counted wrote before they
 * counted. Block names start with what. */
void ws_arrive_wait(Lower *L, LLVMValueRef base, LLVMValueRef word, LLVMValueRef want,
		    const char *what);
/* Split rows: the partials through the workspace; the CTA that finishes a row writes it. */
/* A loop's phis for the partials rs, in its head, entered from pre; the partials become them.
 * red_phis_close adds the values the back edge brings from end, and the partials become the
 * phis again (the loop's results, in its exit). */
RedPhi *red_phis(Lower *L, Red *rs, int n, LLVMBasicBlockRef pre);
void red_phis_close(Red *rs, int n, RedPhi *phi, LLVMBasicBlockRef end);
void split_finish(Lower *L, Red *rs, int n);

/* >>> the rows a CTA walks: one row block, or a persistent grid's (lower_sched.c) */
/* The thread's row in row block rb, where it starts in each [M,N] array (L->rowoff, the one
 * place the row offset rule lives: row * the array's stride) and its segment's aligned body. */
void place_row(Lower *L, LLVMValueRef rb);
/* The kernel's body from the prologue to the return: the row block of the CTA, or under a
 * persistent grid a loop over row blocks (static stride or the work counter). */
void lower_rows(Lower *L);

/* >>> sums over rows (lower_colsum.c) */
/* The partials at 0, before a persistent grid's loop (L->csum; NULL without colsums), in
 * registers or in shared memory (L->csum_smem: smem=1 on a persistent row, a looped row), or in
 * the workspace slot (L->csum_ws: a looped row too wide for shared memory, ws_colsums). */
void colsum_begin(Lower *L);
/* In the loop's head: the partials as phis entered from pre (returned); colsum_close adds what
 * the back edge brings from latch, and the partials become the phis again (the loop's exit). */
LLVMValueRef **colsum_phis(Lower *L, LLVMBasicBlockRef pre);
void colsum_close(Lower *L, LLVMValueRef **phi, LLVMBasicBlockRef latch);
/* Adds the chunk's elements of colsum instruction i's operand (real rows only). */
void colsum_local(Lower *L, int i, const Chunk *ch);
/* The colsums' own pass (colsum_late; lower_sched.c walks it): a chunk's partials at 0 in
 * registers (L->csum), and once the CTA's rows are added, stored to the row group's slot at the
 * chunk's first column `at` (i64). */
void colsum_zero(Lower *L);
void colsum_own_store(Lower *L, LLVMValueRef at);
/* After the loop: the partials through the workspace, the groups' combine, then every group's
 * slice of the columns into the outputs. */
void colsum_finish(Lower *L);
void colpass_add(Lower *L, int ins, LLVMValueRef *acc, LLVMValueRef *valid);
/* The column pass's row values (colpass_rows): stored where a row's [M] outputs are
 * (lower_red.c), waited for by the grid (lower_colsum.c), loaded as each row of the column pass
 * is placed (lower_red.c). */
void rowvals_store(Lower *L);
void rowvals_wait(Lower *L);
void rowvals_load(Lower *L);
void colpass_store(Lower *L, LLVMValueRef *acc, const ColpassLanes *ln, LLVMValueRef pj,
		   LLVMValueRef rl, LLVMValueRef ok, LLVMValueRef col, int param);

/* >>> pass scheduling: the looped and persistent bodies (lower_rows.c) */
/* Looped (and split) rows: a streaming pass per level of reductions, then an apply pass. */
void lower_looped(Lower *L);
/* Persistent rows: one chunk holds the row in registers; the body runs in program order. */
void lower_persistent(Lower *L);

/* >>> --regions: timer stamps at phase boundaries (regions.c); all do nothing without it */
typedef struct LowerRegions LowerRegions;
/* Where a region starts: the cp.async fill of the rows kept on chip (smem=2), a looped pass's chunk
 * loop (or the apply pass), a row's combine within the CTA (red_cross), across a cluster, a
 * persistent body (loads and elementwise work), the row outputs (or the split rows' combine), under
 * a grid the time from a block's end to the loop's head, the CTA's column pass where it makes the
 * whole kernel (colpass_whole); R_END closes the block's last region: at the kernel's exit, or
 * under a persistent grid at the end of each row block. */
enum { R_FILL, R_LOOP, R_CROSS, R_CLUSTER, R_BODY, R_ROWS, R_BETWEEN, R_COLPASS, R_END };
/* The parameter types with the stamp buffer's pointer appended (a copy), *np counted. */
LLVMTypeRef *regions_param_type(Lower *L, LLVMTypeRef *pt, int *np);
/* After the prologue: the buffer and the threads that stamp. */
void regions_begin(Lower *L);
/* Whether the row block rb (under a grid, the CTA's next block) is stamped: an i1, or NULL when
 * every block is (or there are no stamps). Under a grid, call it once a block. */
LLVMValueRef regions_sampled(Lower *L, LLVMValueRef rb);
/* Where the stamps of a row block begin: its slot (i64: the CTA, or under a persistent grid the
 * row block) and the first region's start, stamped where sampled holds (NULL: always). */
void regions_start(Lower *L, LLVMValueRef slot, LLVMValueRef sampled);
/* Ends the open region and starts one of kind: thread 0 stamps the boundary. R_END
 * ends the block: under a grid it opens `between` (and with sums over rows the tail: `colsum` or
 * `colpass`, and where every CTA waits for the grid, a wait region and the work after it), which
 * end in regions_head, regions_tail_wait and regions_tail. */
void region_mark(Lower *L, int kind);
/* A value the next stamp waits for (the result of the combine its region ended, at most 8): its
 * operand, so the combine's arithmetic is not scheduled past the boundary with its inputs live
 * across it. */
void regions_after(Lower *L, LLVMValueRef v);
/* Under a grid, at the loop's head: the end of `between` (and of the zero-long tail regions) of
 * the CTA's block before, if it was stamped. */
void regions_head(Lower *L);
/* After a grid's blocks and the colsum combine or the column pass: the end of the tail's last
 * region of the CTA's last block, if it was stamped. */
void regions_tail(Lower *L);
/* After a grid's blocks, where every CTA waits for the grid (the colsum combine, the column
 * pass's row values): the CTA's arrival (done 0: the start of the tail's wait region) and the
 * wait's end (done 1: the start of the region after it), in the slot of the CTA's last block, if
 * it was stamped. */
void regions_tail_wait(Lower *L, int done);
/* A block's plain copy: no stamps from pause to resume, and the CTA's last block marked as not
 * stamped. */
LowerRegions *regions_pause(Lower *L);
void regions_resume(Lower *L, LowerRegions *R);

#endif
