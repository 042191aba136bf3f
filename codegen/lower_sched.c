/* Lowering: the rows a CTA walks, its row block or a persistent grid's (docs/codegen.md). */
#include <string.h>

#include "codegen/lower.h"

/* The thread's row in row block rb (m_block rows from row rb * m_block), where the row starts in
 * each [M,N] array (row * the array's stride, the ABI's row stride argument), and the aligned
 * body of its segment. */
void
place_row(Lower *L, LLVMValueRef rb)
{
	L->rblock = rb;
	L->row = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, rb, ci64(L, L->c->cfg.m_block), ""),
			      LLVMBuildZExt(L->b, L->grp, L->i64, ""), "");
	L->rowok = LLVMBuildICmp(L->b, LLVMIntSLT, L->row, L->M, "");
	/* rows past M read row M-1 (masked out), so no load needs a branch */
	LLVMValueRef rowc = L->rowc =
	    LLVMBuildSelect(L->b, L->rowok, L->row, LLVMBuildSub(L->b, L->M, ci64(L, 1), ""), "");
	for (int p = 0; p < L->k->nparams; p++)
		L->rowoff[p] = L->stride[p] ? LLVMBuildMul(L->b, rowc, L->stride[p], "") : NULL;
	if (L->shifted) {
		body_bounds(L, LLVMBuildMul(L->b, rowc, L->N, ""));
	} else {
		L->body_lo = L->seg_start;
		L->body_hi = L->seg_end;
	}
}

/* The row code of the config's mode, from the row's placement to L->end, where the builder is
 * left. */
static void
row_body(Lower *L)
{
	if (L->c->cfg.persistent && L->split == 1)
		lower_persistent(L);
	else
		lower_looped(L);
	LLVMBuildBr(L->b, L->end);
	LLVMPositionBuilderAtEnd(L->b, L->end);
}

/* What lowering a row block changes in L, so that the block can be lowered twice from one state:
 * the row values, the instructions done, the shared-memory slots taken, the colsum partials, the
 * cooperative exchanges' rounds (each copy waits for the same counts: counted twice, the copy
 * lowered second waited for a round that never came, and the kernel hung). */
typedef struct {
	LLVMValueRef *uni, **el, **csum;
	char *done;
	int smem_next, clu_next, pass, coop_rounds;
} Snap;

static LLVMValueRef **
csum_copy(Lower *L, LLVMValueRef **from)
{
	if (!from)
		return NULL;
	LLVMValueRef **to = arena_alloc(L->a, sizeof(LLVMValueRef *) * (L->k->nins + 1));
	for (int i = 0; i < L->k->nins; i++)
		if (from[i]) {
			to[i] = arena_alloc(L->a, sizeof(LLVMValueRef) * L->E);
			memcpy(to[i], from[i], sizeof(LLVMValueRef) * L->E);
		}
	return to;
}

static void
snap_take(Lower *L, Snap *s)
{
	size_t nv = sizeof(LLVMValueRef) * (L->k->nvals + 1);
	s->uni = memcpy(arena_alloc(L->a, nv), L->uni, nv);
	s->done = memcpy(arena_alloc(L->a, L->k->nins + 1), L->done, L->k->nins + 1);
	s->el = L->el;
	s->csum = csum_copy(L, L->csum);
	s->smem_next = L->smem_next;
	s->clu_next = L->clu_next;
	s->pass = L->pass;
	s->coop_rounds = L->coop_rounds;
}

static void
snap_put(Lower *L, const Snap *s)
{
	memcpy(L->uni, s->uni, sizeof(LLVMValueRef) * (L->k->nvals + 1));
	memcpy(L->done, s->done, L->k->nins + 1);
	L->el = s->el;
	L->csum = csum_copy(L, s->csum);
	L->smem_next = s->smem_next;
	L->clu_next = s->clu_next;
	L->pass = s->pass;
	L->coop_rounds = s->coop_rounds;
}

/* Row block rb's code, from its placement to its end (a barrier first when barrier is set); with
 * slot, the stamps of the block start there (regions_start). Under --regions' sampling
 * (docs/regions.md) it is lowered twice: the copy with the stamps where sampled holds, the plain
 * copy, without a timer read to hold ptxas's schedule, where it does not; the colsum partials
 * meet in phis after them. Each copy places the row itself, so that no row offset is live across
 * the branch. */
static void
block_code(Lower *L, LLVMValueRef rb, LLVMValueRef sampled, int barrier, LLVMValueRef slot)
{
	if (!sampled) {
		if (slot)
			regions_start(L, slot, NULL);
		place_row(L, rb);
		row_body(L);
		if (barrier)
			intr(L, "llvm.nvvm.barrier0", NULL, NULL, 0);
		region_mark(L, R_END);
		return;
	}
	Snap s;
	snap_take(L, &s);
	/* the plain copy first, and the stamped one marked unlikely: the layout and the schedule
	 * of the blocks most CTAs run are the plain kernel's */
	LLVMBasicBlockRef no = LLVMAppendBasicBlockInContext(L->cx, L->fn, "block.plain");
	LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(L->cx, L->fn, "block.stamped");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(L->cx, L->fn, "block.done");
	LLVMValueRef br = LLVMBuildCondBr(L->b, sampled, yes, no);
	LLVMMetadataRef w[3] = {
	    LLVMMDStringInContext2(L->cx, "branch_weights", 14),
	    LLVMValueAsMetadata(ci32(L, 1)),
	    LLVMValueAsMetadata(ci32(L, regions_every(L->c) - 1)),
	};
	LLVMSetMetadata(br, LLVMGetMDKindIDInContext(L->cx, "prof", 4),
			LLVMMetadataAsValue(L->cx, LLVMMDNodeInContext2(L->cx, w, 3)));
	LLVMBasicBlockRef from[2];
	LLVMValueRef **csum[2];
	for (int copy = 0; copy < 2; copy++) {
		LLVMPositionBuilderAtEnd(L->b, copy ? yes : no);
		snap_put(L, &s);
		LowerRegions *R = copy ? NULL : regions_pause(L);
		block_code(L, rb, NULL, barrier, slot);
		if (!copy)
			regions_resume(L, R);
		csum[copy] = L->csum;
		from[copy] = LLVMGetInsertBlock(L->b);
		LLVMBuildBr(L->b, join);
	}
	LLVMPositionBuilderAtEnd(L->b, join);
	snap_put(L, &s);
	for (int i = 0; L->csum && i < L->k->nins; i++)
		for (int e = 0; L->csum[i] && e < L->E; e++) {
			LLVMValueRef phi = LLVMBuildPhi(L->b, L->f32, "");
			LLVMValueRef v[2] = {csum[0][i][e], csum[1][i][e]};
			LLVMAddIncoming(phi, v, from, 2);
			L->csum[i][e] = phi;
		}
}

static LLVMValueRef
tid0(Lower *L)
{
	LLVMValueRef tid = intr(L, "llvm.nvvm.read.ptx.sreg.tid.x", NULL, NULL, 0);
	return LLVMBuildICmp(L->b, LLVMIntEQ, tid, ci32(L, 0), "");
}

/* Counter c of the workspace (0: the next free row block, 1: CTAs done), a u32. */
static LLVMValueRef
counter(Lower *L, int c)
{
	LLVMValueRef ix = ci64(L, c);
	return LLVMBuildGEP2(L->b, L->i32, L->ws, &ix, 1, "");
}

/* The word of static shared memory through which thread 0 hands its CTA the next row block: the
 * last 16 bytes of the cross-warp area, red_bytes long (smem_layout). */
static LLVMValueRef
next_word(Lower *L, int64_t red_bytes)
{
	LLVMValueRef off = ci64(L, red_bytes - 16);
	return LLVMBuildGEP2(L->b, L->i8, L->smem, &off, 1, "");
}

/* Thread 0's next block nb to its CTA: the hand-off word, then (at join, where the other threads
 * wait) a barrier and every thread's read. */
static LLVMValueRef
hand_off(Lower *L, LLVMValueRef nb, LLVMBasicBlockRef join, int64_t red_bytes)
{
	LLVMSetAlignment(LLVMBuildStore(L->b, nb, next_word(L, red_bytes)), 8);
	LLVMBuildBr(L->b, join);
	LLVMPositionBuilderAtEnd(L->b, join);
	intr(L, "llvm.nvvm.barrier0", NULL, NULL, 0);
	LLVMValueRef v = LLVMBuildLoad2(L->b, L->i64, next_word(L, red_bytes), "");
	LLVMSetAlignment(v, 8);
	return v;
}

/* The row blocks a grid walks at once: gridDim, or its clusters under a grid of clusters. */
LLVMValueRef
grid_bands(Lower *L)
{
	LLVMValueRef n = LLVMBuildZExt(
	    L->b, intr(L, "llvm.nvvm.read.ptx.sreg.nctaid.x", NULL, NULL, 0), L->i64, "");
	return LLVMBuildUDiv(L->b, n, ci64(L, L->nseg), "");
}

/* The CTA's row block after rb: rb + gridDim (static), or gridDim + the ticket thread 0 takes
 * from the work counter, handed to the CTA through shared memory (dynamic). The ticket is
 * taken at the top of the block's code, so its round trip overlaps the row's work. */
static LLVMValueRef
next_block(Lower *L, LLVMValueRef rb, LLVMValueRef stride, int64_t red_bytes)
{
	if (!L->c->cfg.dynamic)
		return LLVMBuildAdd(L->b, rb, stride, "");
	LLVMBasicBlockRef take = LLVMAppendBasicBlockInContext(L->cx, L->fn, "ticket");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(L->cx, L->fn, "ticket.join");
	LLVMBuildCondBr(L->b, tid0(L), take, join);
	LLVMPositionBuilderAtEnd(L->b, take);
	LLVMValueRef t = LLVMBuildAtomicRMW(L->b, LLVMAtomicRMWBinOpAdd, counter(L, 0), ci32(L, 1),
					    LLVMAtomicOrderingMonotonic, 0);
	LLVMValueRef nb = LLVMBuildAdd(L->b, stride, LLVMBuildZExt(L->b, t, L->i64, ""), "");
	return hand_off(L, nb, join, red_bytes);
}

/* Cluster launch control (sm_100, PTX ISA 8.6; L->clc): every row block is launched as a CTA, and
 * a CTA that finishes a block asks the hardware to cancel the launch of one not yet running and
 * takes its block: thread 0 arms the CTA's mbarrier for the 16-byte response
 * (mbarrier.arrive.expect_tx), issues clusterlaunchcontrol.try_cancel into the response word, waits
 * on the mbarrier, and decodes the response; a cancelled CTA's block is its ctaid (a grid's rows
 * are not cut, so a block is a CTA), and when none is left the CTA's next block is past the
 * last. LLVM 19 has none of these instructions: inline PTX, addresses in the shared window. The
 * response and the mbarrier are the 32 bytes of L->clc_smem (lower.c); the next block goes to the
 * CTA through the dynamic grid's hand-off word, as the ticket does. */
static LLVMValueRef
shared_addr(Lower *L, LLVMValueRef base, int off)
{
	LLVMValueRef o = ci64(L, off);
	return LLVMBuildPtrToInt(L->b, LLVMBuildGEP2(L->b, L->i8, base, &o, 1, ""), L->i64, "");
}

static LLVMValueRef
asm_call(Lower *L, LLVMTypeRef rt, const char *text, const char *cons, LLVMValueRef *args, int n)
{
	LLVMTypeRef at[3] = {L->i64, L->i64, L->i64};
	LLVMTypeRef ft = LLVMFunctionType(rt, at, (unsigned)n, 0);
	LLVMValueRef fn = LLVMGetInlineAsm(ft, (char *)text, strlen(text), (char *)cons,
					   strlen(cons), 1, 0, LLVMInlineAsmDialectATT, 0);
	return LLVMBuildCall2(L->b, ft, fn, args, (unsigned)n, "");
}

/* Thread 0 initialises the mbarrier (one arrival a phase) once, before the CTA's first block;
 * the emulator has none. */
static void
clc_init(Lower *L, LLVMValueRef clc)
{
	if (L->host)
		return;
	LLVMBasicBlockRef init = LLVMAppendBasicBlockInContext(L->cx, L->fn, "clc.init");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(L->cx, L->fn, "clc.ready");
	LLVMBuildCondBr(L->b, tid0(L), init, join);
	LLVMPositionBuilderAtEnd(L->b, init);
	LLVMValueRef bar = shared_addr(L, clc, 16);
	asm_call(L, LLVMVoidTypeInContext(L->cx),
		 "mbarrier.init.shared::cta.b64 [$0], 1;\n\tfence.mbarrier_init.release.cluster;",
		 "l,~{memory}", &bar, 1);
	LLVMBuildBr(L->b, join);
	LLVMPositionBuilderAtEnd(L->b, join);
}

/* The emulator's try_cancel (codegen/emulate.c, emu.clc.try_cancel): the ctaid of a CTA it takes
 * off the launch, so that it never starts, or -1 when every CTA has started. */
static LLVMValueRef
clc_emulated(Lower *L, LLVMValueRef nrb)
{
	LLVMTypeRef ft = LLVMFunctionType(L->i64, NULL, 0, 0);
	LLVMValueRef f = LLVMGetNamedFunction(L->mod, "emu.clc.try_cancel");
	if (!f)
		f = LLVMAddFunction(L->mod, "emu.clc.try_cancel", ft);
	LLVMValueRef r = LLVMBuildCall2(L->b, ft, f, NULL, 0, "");
	return LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSGE, r, ci64(L, 0), ""), r, nrb,
			       "");
}

static LLVMValueRef
clc_next(Lower *L, LLVMValueRef clc, LLVMValueRef nrb, int64_t red_bytes)
{
	LLVMBasicBlockRef ask = LLVMAppendBasicBlockInContext(L->cx, L->fn, "clc.ask");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(L->cx, L->fn, "clc.join");
	LLVMBuildCondBr(L->b, tid0(L), ask, join);
	LLVMPositionBuilderAtEnd(L->b, ask);
	if (L->host)
		return hand_off(L, clc_emulated(L, nrb), join, red_bytes);
	LLVMBasicBlockRef wait = LLVMAppendBasicBlockInContext(L->cx, L->fn, "clc.wait");
	LLVMBasicBlockRef got = LLVMAppendBasicBlockInContext(L->cx, L->fn, "clc.got");
	LLVMValueRef a[3] = {shared_addr(L, clc, 16), shared_addr(L, clc, 0)};
	LLVMValueRef state = asm_call(
	    L, L->i64,
	    "mbarrier.arrive.expect_tx.shared::cta.b64 $0, [$1], 16;\n\t"
	    "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 "
	    "[$2], [$1];",
	    "=l,l,l,~{memory}", a, 2);
	LLVMBuildBr(L->b, wait);
	LLVMPositionBuilderAtEnd(L->b, wait);
	LLVMValueRef w[2] = {a[0], state};
	LLVMValueRef done =
	    asm_call(L, L->i32,
		     "{\n\t.reg .pred p;\n\tmbarrier.try_wait.shared::cta.b64 p, [$1], "
		     "$2;\n\tselp.u32 $0, 1, 0, p;\n\t}",
		     "=r,l,l,~{memory}", w, 2);
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntNE, done, ci32(L, 0), ""), got, wait);
	LLVMPositionBuilderAtEnd(L->b, got);
	LLVMTypeRef two[2] = {L->i32, L->i32};
	LLVMValueRef q =
	    asm_call(L, LLVMStructTypeInContext(L->cx, two, 2, 0),
		     "{\n\t.reg .b128 q;\n\t.reg .pred c;\n\tld.shared.b128 q, [$2];\n\t"
		     "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 c, q;\n\t"
		     "selp.u32 $0, 1, 0, c;\n\t"
		     "clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 $1, q;\n\t}",
		     "=r,=r,l,~{memory}", &a[1], 1);
	LLVMValueRef cancelled =
	    LLVMBuildICmp(L->b, LLVMIntNE, LLVMBuildExtractValue(L->b, q, 0, ""), ci32(L, 0), "");
	LLVMValueRef nb = LLVMBuildSelect(
	    L->b, cancelled, LLVMBuildZExt(L->b, LLVMBuildExtractValue(L->b, q, 1, ""), L->i64, ""),
	    nrb, "");
	return hand_off(L, nb, join, red_bytes);
}

/* The last CTA to finish zeroes the counters for the next launch: every CTA has taken its last
 * ticket before it counts itself done, so no ticket is taken after the reset. */
static void
counter_reset(Lower *L)
{
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(L->cx, L->fn, "sched.done");
	LLVMBasicBlockRef last = LLVMAppendBasicBlockInContext(L->cx, L->fn, "sched.last");
	LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(L->cx, L->fn, "sched.out");
	LLVMBuildCondBr(L->b, tid0(L), done, out);
	LLVMPositionBuilderAtEnd(L->b, done);
	intr(L, "llvm.nvvm.membar.gl", NULL, NULL, 0);
	LLVMValueRef d = LLVMBuildAtomicRMW(L->b, LLVMAtomicRMWBinOpAdd, counter(L, 1), ci32(L, 1),
					    LLVMAtomicOrderingMonotonic, 0);
	LLVMValueRef grid = intr(L, "llvm.nvvm.read.ptx.sreg.nctaid.x", NULL, NULL, 0);
	LLVMValueRef is_last =
	    LLVMBuildICmp(L->b, LLVMIntEQ, d, LLVMBuildSub(L->b, grid, ci32(L, 1), ""), "");
	LLVMBuildCondBr(L->b, is_last, last, out);
	LLVMPositionBuilderAtEnd(L->b, last);
	intr(L, "llvm.nvvm.membar.gl", NULL, NULL, 0);
	for (int c = 0; c < 2; c++)
		LLVMSetAlignment(LLVMBuildStore(L->b, ci32(L, 0), counter(L, c)), 4);
	LLVMBuildBr(L->b, out);
	LLVMPositionBuilderAtEnd(L->b, out);
}

/* Under a persistent grid with persistent rows whose body starts aligned: the raw vectors of
 * every load of param shape sh over the body chunk of the row block placed last (or, for [N]
 * inputs, of the whole row, for any row), into given (NULL for the other instructions). */
static void
issue_loads(Lower *L, Shape sh, LLVMValueRef **given)
{
	const Kernel *k = L->k;
	Chunk ch = chunk_at(L, L->body_lo);
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		if (in->op == OP_LOAD && k->params[in->param].shape == sh && in->res[0] >= 0 &&
		    is_tile(L, in->res[0]))
			given[i] = load_raw(L, in, &ch);
	}
}

/* Under ahead=1: the raw value of every [M] load at the thread's row (placed on the next block),
 * into given (NULL for the other instructions). */
static void
issue_row_loads(Lower *L, LLVMValueRef *given)
{
	const Kernel *k = L->k;
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		if (in->op == OP_LOAD && k->params[in->param].shape == SH_ROW && in->res[0] >= 0)
			given[i] = load_row_raw(L, in);
	}
}

/* ahead >= 2: the cp.async copies of the row block place_row placed last into the ring's slot
 * at byte at (its [M,N] loads' regions there), as one commit group. */
static void
ring_fill(Lower *L, LLVMValueRef at)
{
	Chunk ch = chunk_at(L, L->body_lo);
	L->ring_at = at;
	keep_async(L, &ch);
	L->ring_at = NULL;
	intr(L, "llvm.nvvm.cp.async.commit.group", NULL, NULL, 0);
}

/* After the grid's rows, for a pass that reads the rows' inputs again from global memory (the
 * colsums' own pass, the column pass): no load kept on chip (they hold the last row only), none
 * given ahead, none held across blocks, and a last read for the eviction hints. Returns the
 * kept loads' regions, for the caller to put back. */
static int64_t *
rows_again(Lower *L)
{
	int64_t *row_off = L->row_off;
	L->row_off = arena_alloc(L->a, sizeof(int64_t) * (L->k->nins + 1));
	for (int i = 0; i < L->k->nins; i++)
		L->row_off[i] = -1;
	L->given = NULL;
	L->given_row = NULL;
	L->held_in_block = 0;
	L->pass = L->plan->npasses;
	return row_off;
}

/*
 * The colsums' own pass (colsum_late), after the grid's rows: the CTA's row blocks again, a chunk
 * at a time. For chunk c the thread's partials start at 0 in registers; each of the CTA's row
 * blocks (ctaid, ctaid + gridDim, ...) places its row, loads its [M] inputs and evaluates the
 * colsums' cone (Plan.need_colsum) over the chunk, from global memory (not rows kept on chip: they
 * hold the last row only), adding the real rows' elements in row order; then the partials go to
 * the row group's slot at chunk c's columns. A row block a round trip: two or four, their loads
 * issued before the adds, took more registers and spilled, up to 1.29x the time on an H200
 * (docs/codegen.md, "The colsums' own pass").
 */
static void
colsum_own_pass(Lower *L)
{
	const Kernel *k = L->k;
	const Plan *p = L->plan;
	const Config *g = &L->c->cfg;
	int64_t *row_off = rows_again(L);
	LLVMValueRef nrb = row_blocks(L), stride = grid_bands(L);
	For chunks = for_open(L, smem_colsum_cols(g, L->c->N) / g->r_block, "colsum.own");
	LLVMValueRef at = LLVMBuildMul(L->b, chunks.i, ci64(L, g->r_block), "");
	LLVMValueRef base = LLVMBuildAdd(L->b, L->seg_start, at, "");
	colsum_zero(L);
	LLVMBasicBlockRef rpre = LLVMGetInsertBlock(L->b);
	LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colsum.own.row");
	LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colsum.own.row");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colsum.own.row");
	LLVMBuildBr(L->b, head);
	LLVMPositionBuilderAtEnd(L->b, head);
	LLVMValueRef rb = LLVMBuildPhi(L->b, L->i64, "");
	LLVMAddIncoming(rb, &L->band, &rpre, 1);
	LLVMValueRef **phi = colsum_phis(L, rpre);
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, rb, nrb, ""), body, done);
	LLVMPositionBuilderAtEnd(L->b, body);
	place_row(L, rb);
	memset(L->uni, 0, sizeof(LLVMValueRef) * (k->nvals + 1));
	memset(L->done, 0, k->nins + 1);
	lower_ready_uniform(L);
	Chunk ch = chunk_at(L, base);
	for (int i = 0; i < k->nins; i++) {
		if (!p->need_colsum[i])
			continue;
		if (k->ins[i].op == OP_COLSUM)
			colsum_local(L, i, &ch);
		else
			lower_tile(L, &k->ins[i], &ch);
	}
	LLVMValueRef rb2 = LLVMBuildAdd(L->b, rb, stride, "");
	LLVMBasicBlockRef latch = LLVMGetInsertBlock(L->b);
	LLVMBuildBr(L->b, head);
	LLVMAddIncoming(rb, &rb2, &latch, 1);
	colsum_close(L, phi, latch);
	LLVMPositionBuilderAtEnd(L->b, done);
	colsum_own_store(L, at);
	for_close(L, &chunks);
	L->row_off = row_off;
}

/* Row r (i64) of the column pass placed: its row block and row group, the row's [M] values (those
 * made from row reductions from the values the rows wrote: rowvals_load). */
static void
colpass_row(Lower *L, LLVMValueRef r)
{
	int64_t mb = L->c->cfg.m_block;
	LLVMValueRef grp = L->grp;
	L->grp = LLVMBuildTrunc(L->b, LLVMBuildURem(L->b, r, ci64(L, mb), ""), LLVMTypeOf(grp), "");
	place_row(L, LLVMBuildUDiv(L->b, r, ci64(L, mb), ""));
	L->grp = grp;
	memset(L->uni, 0, sizeof(LLVMValueRef) * (L->k->nvals + 1));
	memset(L->done, 0, L->k->nins + 1);
	rowvals_load(L);
	lower_ready_uniform(L);
}

/* A round trip of the column pass: rows r, r + RL, ... (ln->u of them) on the thread's 4 columns
 * from col, their [M,N] stores and their colsums' operands added to acc (ns colsums, instructions
 * cins). whole: every row is real, the position okp and its 4 columns inside the row, so nothing
 * is tested; else each row where it is real and each element inside the row. elems (a whole trip
 * where rows start misaligned): the loads take the 4 columns as one vector read element by
 * element from its first column's address (Chunk.elems), not 4 columns of their own; the stores
 * go element by element either way. */
static void
colpass_trip(Lower *L, LLVMValueRef r, const ColpassLanes *ln, int wide, int whole, int elems,
	     LLVMValueRef okp, LLVMValueRef col, const int *cins, int ns, LLVMValueRef (*acc)[4])
{
	const Kernel *k = L->k;
	const Plan *p = L->plan;
	LLVMValueRef yes = LLVMConstInt(LLVMInt1TypeInContext(L->cx), 1, 0);
	for (int u = 0; u < ln->u; u++) {
		LLVMValueRef ru = LLVMBuildAdd(L->b, r, ci64(L, u * ln->row_lanes), "");
		colpass_row(L, ru); /* a row past M reads row M-1 and adds nothing */
		LLVMValueRef ok = whole ? yes : LLVMBuildAnd(L->b, okp, L->rowok, "");
		int four = wide || (whole && elems);
		Chunk ch = {.vec = four ? 4 : 1, .nvec = four ? 1 : 4, .E = 4, .col = col};
		ch.elems = !wide && four;
		ch.valid = arena_alloc(L->a, sizeof(LLVMValueRef) * 4);
		ch.el = arena_alloc(L->a, sizeof(LLVMValueRef *) * (k->nvals + 1));
		LLVMValueRef *valid = arena_alloc(L->a, sizeof(LLVMValueRef) * 4);
		for (int e = 0; e < 4; e++) {
			ch.valid[e] = yes; /* every address is in the arrays: no branch */
			valid[e] = ok;
		}
		/* the [M,N] stores (colpass_whole): a vector where its row is real and, element
		 * by element, each element inside the row */
		Chunk st = ch;
		if (!wide) {
			st = (Chunk){.vec = 1, .nvec = 4, .E = 4, .col = col, .el = ch.el};
			st.vcol = arena_alloc(L->a, sizeof(LLVMValueRef) * 4);
			for (int e = 0; e < 4; e++) {
				LLVMValueRef c = LLVMBuildAdd(L->b, col, ci64(L, e), "");
				if (whole) {
					st.vcol[e] = c;
					continue;
				}
				LLVMValueRef in = LLVMBuildICmp(L->b, LLVMIntSLT, c, L->N, "");
				st.vcol[e] = LLVMBuildSelect(L->b, in, c, col, "");
				valid[e] = LLVMBuildAnd(L->b, ok, in, "");
			}
			if (!ch.elems)
				ch.vcol = st.vcol;
		}
		st.valid = valid;
		L->el = ch.el;
		for (int i = 0; i < k->nins; i++) {
			const Instr *in = &k->ins[i];
			if (!p->need_colpass[i] || in->op == OP_COLSUM ||
			    instr_is_colsum_store(k, in) || op_is_reduce(in->op))
				continue;
			if (in->op == OP_STORE)
				store_tile(L, in, &st);
			else
				lower_tile(L, in, &ch);
		}
		for (int s = 0; s < ns; s++)
			colpass_add(L, cins[s], acc[s], valid);
	}
}

/* Whether every [M,N] input the column pass loads has elements under 4 bytes (bf16, fp16, i8,
 * fp8). Where rows start misaligned such a pass runs whole round trips (colpass_split_trip) whose
 * loads go element by element from a vector's first address (Chunk.elems), not trips that test
 * and clamp each element's column: measured on an H200 at 60 points of 16-bit inputs, 0.942x the
 * time by geomean, 37 faster and 10 slower by over 2%; at 18 of fp32 inputs 1.047x, 9 slower, so
 * those keep the tested trips (bench/results/h200-2026-12-04-colpass-realign.md, calls 3-4). */
static int
colpass_narrow(Lower *L)
{
	const Kernel *k = L->k;
	int any = 0;
	for (int i = 0; i < k->nins; i++) {
		const Param *p = k->ins[i].param >= 0 ? &k->params[k->ins[i].param] : NULL;
		if (!L->plan->need_colpass[i] || k->ins[i].op != OP_LOAD || p->shape != SH_TILE)
			continue;
		if (type_size(type_resolve(p->type, L->c->dtype)) >= 4)
			return 0;
		any = 1;
	}
	return any;
}

/* A round trip of a column pass that stores [M,N] outputs element by element (colpass_split), or
 * whose rows start misaligned and whose [M,N] inputs are narrow (colpass_narrow: elems, its whole
 * trips' loads from one address a vector), for a position inside the slice: a trip that is whole
 * (every row real and the 4 columns inside the row) runs without a branch, so that its rows' loads
 * go out together; one at an edge tests each row and element, and its stores branch (a load after a
 * branch waits for it: rows lowered so took one row's loads in flight, not u). A position past the
 * slice skips the trip. The sums leave as phis in acc. */
static void
colpass_split_trip(Lower *L, LLVMValueRef r, const ColpassLanes *ln, int elems, LLVMValueRef okp,
		   LLVMValueRef col, const int *cins, int ns, LLVMValueRef (*acc)[4])
{
	LLVMBasicBlockRef pb[3] = {LLVMAppendBasicBlockInContext(L->cx, L->fn, "colpass.whole"),
				   LLVMAppendBasicBlockInContext(L->cx, L->fn, "colpass.edge"),
				   LLVMGetInsertBlock(L->b)};
	LLVMBasicBlockRef test = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colpass.test");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colpass.trip");
	/* a position past the slice does nothing: it takes neither trip beside its warp's */
	LLVMBuildCondBr(L->b, okp, test, join);
	LLVMPositionBuilderAtEnd(L->b, test);
	LLVMValueRef last = LLVMBuildAdd(L->b, r, ci64(L, (ln->u - 1) * ln->row_lanes), "");
	LLVMValueRef full = LLVMBuildAnd(
	    L->b, LLVMBuildICmp(L->b, LLVMIntSLT, last, L->M, ""),
	    LLVMBuildICmp(L->b, LLVMIntSLT, LLVMBuildAdd(L->b, col, ci64(L, 3), ""), L->N, ""), "");
	LLVMBuildCondBr(L->b, full, pb[0], pb[1]);
	LLVMValueRef(*pacc[3])[4];
	pacc[2] = acc;
	for (int w = 0; w < 2; w++) {
		LLVMPositionBuilderAtEnd(L->b, pb[w]);
		pacc[w] = arena_alloc(L->a, sizeof(LLVMValueRef[4]) * (size_t)ns);
		memcpy(pacc[w], acc, sizeof(LLVMValueRef[4]) * (size_t)ns);
		colpass_trip(L, r, ln, 0, w == 0, elems, okp, col, cins, ns, pacc[w]);
		pb[w] = LLVMGetInsertBlock(L->b);
		LLVMBuildBr(L->b, join);
	}
	LLVMPositionBuilderAtEnd(L->b, join);
	for (int s = 0; s < ns; s++)
		for (int e = 0; e < 4; e++) {
			LLVMValueRef in[3] = {pacc[0][s][e], pacc[1][s][e], pacc[2][s][e]};
			acc[s][e] = LLVMBuildPhi(L->b, L->f32, "");
			LLVMAddIncoming(acc[s][e], in, pb, 3);
		}
}

/* The column pass's lanes, at c's launch (codegen.h). */
void
codegen_colpass_lanes(const Kernel *k, const Compile *c, ColpassLanes *ln)
{
	const Config *g = &c->cfg;
	Launch l;
	codegen_launch(k, c, &l);
	/* a row's words (plan_colpass_row_words; the model's count differs: colpass_words) */
	int words = plan_colpass_row_words(k->plan, k, c->dtype,
					   colpass_split(plan_colpass_stores(k->plan, k), g, c->N));
	ColpassArrays arr;
	plan_colpass_arrays(k->plan, k, c->dtype, &arr);
	colpass_lanes(colpass_slice(c->N, l.grid_x, arr.isz), c->M, g->num_warps * 32, g->min_ctas,
		      words, arr.isz, colpass_wide(g, c->N), &arr, ln, NULL);
}

/*
 * The column pass (colpass=1, colsum_column), after the CTA's rows: the sums over rows of the
 * columns of a slice, from the inputs. The positions are vectors of 4 columns, nj =
 * cdiv(cdiv(N, 4), gridDim) rounded up to whole sectors (colpass_slice) consecutive ones a CTA; W
 * lanes take W consecutive positions a turn, and the CTA's RL = threads / W row lanes take rows l,
 * l + RL, ..., u a round trip (W and u: colpass_lanes), evaluating the colsums' cone
 * (Plan.need_colsum) on their 4 columns (one 4-wide access an input where rows start aligned to vec
 * >= 4, colpass_wide; else element by element) and adding each colsum's operand in row order
 * (colpass_add). The row lanes' sums of a position are added pairwise in a fixed tree through the
 * dynamic shared memory (the rows are done: a barrier first), and the first W threads store them
 * (colpass_store). No partials while the rows stream, no workspace, no wait for the grid; every
 * order is fixed by the config, so the bits do not depend on timing.
 */
static void
colsum_column_pass(Lower *L)
{
	const Kernel *k = L->k;
	const Plan *p = L->plan;
	const Config *g = &L->c->cfg;
	int64_t N = L->c->N, cols4 = (N + 3) / 4;
	int wide = colpass_wide(g, N);
	int split = colpass_split(plan_colpass_stores(p, k), g, N);
	ColpassArrays arr;
	plan_colpass_arrays(p, k, L->c->dtype, &arr);
	int64_t align = colpass_align(arr.isz);
	ColpassLanes ln;
	codegen_colpass_lanes(k, L->c, &ln);
	int64_t W = ln.lanes, RL = ln.row_lanes;
	/* the colsums stored, each its instruction and output */
	int ns = 0, *cins = arena_alloc(L->a, sizeof(int) * (size_t)p->ncolsum);
	int *param = arena_alloc(L->a, sizeof(int) * (size_t)p->ncolsum);
	for (int i = 0; i < k->nins && ns < p->ncolsum; i++)
		if (instr_is_colsum_store(k, &k->ins[i])) {
			cins[ns] = k->vals[argval(&k->ins[i], 0)].def;
			param[ns++] = k->ins[i].param;
		}
	int64_t *row_off = rows_again(L);
	intr(L, "llvm.nvvm.barrier0", NULL, NULL, 0); /* every row read the dynamic area */
	rowvals_wait(L);

	LLVMValueRef G = LLVMBuildZExt(
	    L->b, intr(L, "llvm.nvvm.read.ptx.sreg.nctaid.x", NULL, NULL, 0), L->i64, "");
	LLVMValueRef tid = LLVMBuildZExt(
	    L->b, intr(L, "llvm.nvvm.read.ptx.sreg.tid.x", NULL, NULL, 0), L->i64, "");
	/* colpass_slice: cdiv(cols4, G) rounded up to whole sectors */
	LLVMValueRef nj = LLVMBuildUDiv(
	    L->b, LLVMBuildAdd(L->b, ci64(L, cols4), LLVMBuildSub(L->b, G, ci64(L, 1), ""), ""), G,
	    "");
	nj = LLVMBuildMul(
	    L->b,
	    LLVMBuildUDiv(L->b, LLVMBuildAdd(L->b, nj, ci64(L, align - 1), ""), ci64(L, align), ""),
	    ci64(L, align), "");
	LLVMValueRef first = LLVMBuildMul(L->b, L->cta, nj, "");
	LLVMValueRef pj = LLVMBuildURem(L->b, tid, ci64(L, W), "");
	LLVMValueRef rl = LLVMBuildUDiv(L->b, tid, ci64(L, W), "");

	/* turns: k = 0, W, ... while k < nj, the same trips for every thread (barriers) */
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b);
	LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colpass.turn");
	LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colpass.turn.body");
	LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colpass.done");
	LLVMBuildBr(L->b, head);
	LLVMPositionBuilderAtEnd(L->b, head);
	LLVMValueRef kt = LLVMBuildPhi(L->b, L->i64, "");
	LLVMValueRef k0 = ci64(L, 0);
	LLVMAddIncoming(kt, &k0, &pre, 1);
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntULT, kt, nj, ""), body, out);
	LLVMPositionBuilderAtEnd(L->b, body);
	LLVMValueRef j = LLVMBuildAdd(L->b, kt, pj, "");
	LLVMValueRef pos = LLVMBuildAdd(L->b, first, j, "");
	LLVMValueRef okp =
	    LLVMBuildAnd(L->b, LLVMBuildICmp(L->b, LLVMIntULT, j, nj, ""),
			 LLVMBuildICmp(L->b, LLVMIntULT, pos, ci64(L, cols4), ""), "");
	LLVMValueRef col =
	    LLVMBuildMul(L->b, LLVMBuildSelect(L->b, okp, pos, ci64(L, 0), ""), ci64(L, 4), "");

	/* the rows, ln.u a round trip */
	LLVMBasicBlockRef rpre = LLVMGetInsertBlock(L->b);
	LLVMBasicBlockRef rhead = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colpass.row");
	LLVMBasicBlockRef rbody = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colpass.row.body");
	LLVMBasicBlockRef rdone = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colpass.row.done");
	LLVMBuildBr(L->b, rhead);
	LLVMPositionBuilderAtEnd(L->b, rhead);
	LLVMValueRef r = LLVMBuildPhi(L->b, L->i64, "");
	LLVMAddIncoming(r, &rl, &rpre, 1);
	LLVMValueRef(*acc)[4] = arena_alloc(L->a, sizeof(LLVMValueRef[4]) * (size_t)ns);
	LLVMValueRef(*phi)[4] = arena_alloc(L->a, sizeof(LLVMValueRef[4]) * (size_t)ns);
	for (int s = 0; s < ns; s++)
		for (int e = 0; e < 4; e++) {
			LLVMValueRef z = cf(L, 0);
			phi[s][e] = acc[s][e] = LLVMBuildPhi(L->b, L->f32, "");
			LLVMAddIncoming(phi[s][e], &z, &rpre, 1);
		}
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, r, L->M, ""), rbody, rdone);
	LLVMPositionBuilderAtEnd(L->b, rbody);
	int narrow = !wide && colpass_narrow(L);
	if (split || narrow)
		colpass_split_trip(L, r, &ln, narrow, okp, col, cins, ns, acc);
	else
		colpass_trip(L, r, &ln, wide, 0, 0, okp, col, cins, ns, acc);
	LLVMValueRef r2 = LLVMBuildAdd(L->b, r, ci64(L, ln.u * RL), "");
	LLVMBasicBlockRef rlatch = LLVMGetInsertBlock(L->b);
	LLVMBuildBr(L->b, rhead);
	LLVMAddIncoming(r, &r2, &rlatch, 1);
	for (int s = 0; s < ns; s++)
		for (int e = 0; e < 4; e++)
			LLVMAddIncoming(phi[s][e], &acc[s][e], &rlatch, 1);
	LLVMPositionBuilderAtEnd(L->b, rdone);

	for (int s = 0; s < ns; s++)
		colpass_store(L, phi[s], &ln, pj, rl, okp, col, param[s]);
	LLVMValueRef k2 = LLVMBuildAdd(L->b, kt, ci64(L, W), "");
	LLVMBasicBlockRef latch = LLVMGetInsertBlock(L->b);
	LLVMBuildBr(L->b, head);
	LLVMAddIncoming(kt, &k2, &latch, 1);
	LLVMPositionBuilderAtEnd(L->b, out);
	L->row_off = row_off;
}

/* The bits of a loaded value: 8 to 128 (a vector of up to 16 bytes), 0 for any other type. */
static unsigned
value_bits(LLVMTypeRef t)
{
	switch (LLVMGetTypeKind(t)) {
	case LLVMVectorTypeKind:
		return LLVMGetVectorSize(t) * value_bits(LLVMGetElementType(t));
	case LLVMIntegerTypeKind:
		return LLVMGetIntTypeWidth(t);
	case LLVMHalfTypeKind:
	case LLVMBFloatTypeKind:
		return 16;
	case LLVMFloatTypeKind:
		return 32;
	case LLVMDoubleTypeKind:
		return 64;
	default:
		return 0;
	}
}

/* acc ^ every 32-bit word of v (a value of at most 32 bits zero-extended). */
static LLVMValueRef
xor_words(Lower *L, LLVMValueRef acc, LLVMValueRef v)
{
	unsigned bits = value_bits(LLVMTypeOf(v));
	if (bits == 0 || (bits > 32 && bits % 32))
		return acc;
	if (bits <= 32) {
		LLVMValueRef w = LLVMBuildBitCast(L->b, v, LLVMIntTypeInContext(L->cx, bits), "");
		return LLVMBuildXor(L->b, acc, LLVMBuildZExt(L->b, w, L->i32, ""), "");
	}
	LLVMValueRef w = LLVMBuildBitCast(L->b, v, LLVMVectorType(L->i32, bits / 32), "");
	for (unsigned i = 0; i < bits / 32; i++)
		acc = LLVMBuildXor(L->b, acc, LLVMBuildExtractElement(L->b, w, ci32(L, (int)i), ""),
				   "");
	return acc;
}

/* Before a grid's loop: the loads the loop carries from its preheader (the held [N] vectors,
 * under ahead=1 the first block's [M,N] and [M] values) are waited for there. ptxas waits for a
 * load at its first reader; the loop's first reader of a carried value waits for it on the
 * first walk only, but with a scoreboard that the next block's loads, issued above it in the
 * loop, may share, and then it waits for those on every walk: the next block's loads are no
 * longer ahead (docs/codegen.md, "The carried loads' wait"). One reader here, a store no launch
 * takes (M < 0; the runner refuses such a launch) of every word xored, moves the wait out of the
 * loop: the loop's readers find the carried values there and wait for none. Where a band walks
 * one or two blocks at the compiled M the aliased wait costs little, and the wait here holds the
 * first block's start back: measured on the H100 at the sm_90 golden grid points (bench/results/
 * h100-2026-12-06-head-guard.md), walks of 1 and 2 ran 1.032x by geomean with it (8 points, up to
 * 1.065x), walks of 4 to 125 0.998x (61 points, 0.976-1.021x). The emulator has no scoreboard. */
static void
settle_carried(Lower *L, LLVMValueRef **tiles, LLVMValueRef *rows)
{
	const Kernel *k = L->k;
	const Config *g = &L->c->cfg;
	int64_t bands = g->grid / L->nseg > 0 ? g->grid / L->nseg : 1;
	if (L->host || cdiv(cdiv(L->c->M, g->m_block), bands) < 3)
		return;
	LLVMValueRef acc = ci32(L, 0), out = NULL;
	for (int i = 0; i < k->nins; i++) {
		for (int j = 0; tiles[i] && j < L->nvec; j++)
			acc = xor_words(L, acc, tiles[i][j]);
		for (int j = 0; L->given[i] && j < L->nvec; j++)
			acc = xor_words(L, acc, L->given[i][j]);
		if (rows[i])
			acc = xor_words(L, acc, rows[i]);
	}
	for (int p = 0; p < k->nparams && !out; p++)
		if (k->params[p].kind == P_OUT)
			out = L->parg[p];
	if (!out || LLVMIsAConstantInt(acc))
		return;
	static const char text[] =
	    "{ .reg .pred p; setp.lt.s64 p, $0, 0; @p st.global.b32 [$1], $2; }";
	LLVMTypeRef at[3] = {L->i64, LLVMTypeOf(out), L->i32};
	LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(L->cx), at, 3, 0);
	LLVMValueRef fn = LLVMGetInlineAsm(ft, (char *)text, sizeof text - 1, "l,l,r", 5, 1, 0,
					   LLVMInlineAsmDialectATT, 0);
	LLVMValueRef args[3] = {L->M, out, acc};
	LLVMBuildCall2(L->b, ft, fn, args, 3, "");
}

/* A persistent grid: CTA c walks row blocks c, then (static) c + gridDim, c + 2 gridDim, ... or
 * (dynamic) the blocks its tickets name. With persistent rows that start aligned, the [N]
 * inputs are loaded once before the loop, and under ahead=1 the next block's [M,N] and [M]
 * loads are issued at the top of the current block's code, carried round the loop in phis: an
 * [M] value loaded in the block that uses it (a norm's saved mean or rstd) put a DRAM round trip
 * in every block of a CTA that is alone on its SM. Under ahead=K >= 2 the [M] loads go the same
 * way, and the [M,N] loads go through the ring of K + 1 slots in shared memory: before the loop
 * the first K blocks are copied into slots 0 to K-1, a commit group each; at the top of block t
 * the copy of block t + K goes to the slot block t-1 read (each thread copies the vectors it
 * reads, so that slot is free once the thread has read it), then cp.async.wait_group K leaves
 * block t's group done, and the block's loads read slot t mod (K + 1). */
static void
grid_loop(Lower *L)
{
	const Kernel *k = L->k;
	const Config *g = &L->c->cfg;
	if (colpass_whole(k->plan->colsum_whole, g)) {
		/* the column pass makes the whole kernel: the rows have nothing to do; --regions
		 * times each CTA's column pass, a slot a CTA */
		colsum_begin(L);
		regions_start(L, L->cta, NULL);
		region_mark(L, R_COLPASS);
		colsum_column_pass(L);
		region_mark(L, R_END);
		return;
	}
	int held = config_grid_holds(g, L->c->N);
	Smem sm;
	smem_layout(k, L->c->dtype, L->c->N, g, &sm, NULL, NULL);
	LLVMValueRef nrb = row_blocks(L), stride = grid_bands(L);
	L->given = arena_alloc(L->a, sizeof(LLVMValueRef *) * (k->nins + 1));
	if (held) {
		/* any row: every [N] vector inside the row is read */
		L->rowok = LLVMConstInt(LLVMInt1TypeInContext(L->cx), 1, 0);
		L->body_lo = L->seg_start;
		L->body_hi = L->seg_end;
		issue_loads(L, SH_VEC, L->given);
	}
	if (k->plan->ncolsum)
		colsum_begin(L);
	LLVMValueRef clc = L->clc_smem; /* NULL on the host */
	if (L->clc)
		clc_init(L, clc);
	LLVMValueRef **cur = arena_alloc(L->a, sizeof(LLVMValueRef *) * (k->nins + 1));
	LLVMValueRef *rcur = arena_alloc(L->a, sizeof(LLVMValueRef) * (k->nins + 1));
	int64_t ring = sm.ring_slot; /* the ring's slot bytes, 0 without it */
	for (int s = 0; L->ring && s < g->ahead; s++) {
		place_row(
		    L, LLVMBuildAdd(L->b, L->band, LLVMBuildMul(L->b, stride, ci64(L, s), ""), ""));
		ring_fill(L, ci64(L, s * ring));
	}
	if (g->ahead) {
		place_row(L, L->band);
		if (!L->ring)
			issue_loads(L, SH_TILE, cur);
		issue_row_loads(L, rcur);
	}
	settle_carried(L, cur, rcur);
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b);
	LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(L->cx, L->fn, "rows");
	LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(L->cx, L->fn, "rows.body");
	LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(L->cx, L->fn, "rows.done");
	LLVMBuildBr(L->b, head);
	LLVMPositionBuilderAtEnd(L->b, head);
	LLVMValueRef rb = LLVMBuildPhi(L->b, L->i64, "");
	LLVMAddIncoming(rb, &L->band, &pre, 1);
	LLVMValueRef at = NULL; /* the ring: the block's slot, in bytes */
	if (L->ring) {
		at = LLVMBuildPhi(L->b, L->i64, "");
		LLVMValueRef zero = ci64(L, 0);
		LLVMAddIncoming(at, &zero, &pre, 1);
	}
	for (int i = 0; i < k->nins; i++)
		if (cur[i]) {
			LLVMValueRef *phi = arena_alloc(L->a, sizeof(LLVMValueRef) * L->nvec);
			for (int j = 0; j < L->nvec; j++) {
				phi[j] = LLVMBuildPhi(L->b, LLVMTypeOf(cur[i][j]), "");
				LLVMAddIncoming(phi[j], &cur[i][j], &pre, 1);
			}
			cur[i] = phi;
		}
	for (int i = 0; i < k->nins; i++)
		if (rcur[i]) {
			LLVMValueRef phi = LLVMBuildPhi(L->b, LLVMTypeOf(rcur[i]), "");
			LLVMAddIncoming(phi, &rcur[i], &pre, 1);
			rcur[i] = phi;
		}
	LLVMValueRef **csum = colsum_phis(L, pre);
	regions_head(L);
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, rb, nrb, ""), body, exit);
	LLVMPositionBuilderAtEnd(L->b, body);
	/* --regions: a slot a row block (a grid of bands: a slot a row block's segment, so that
	 * slot s is CTA s mod gridDim's); the ticket's wait is in its first region */
	LLVMValueRef sampled = regions_sampled(L, rb);
	LLVMValueRef slot = rb;
	if (L->rg && L->nseg > 1)
		slot = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, rb, ci64(L, L->nseg), ""), L->seg, "");
	regions_start(L, slot, sampled);
	LLVMValueRef rbn =
	    L->clc ? clc_next(L, clc, nrb, sm.red_bytes) : next_block(L, rb, stride, sm.red_bytes);
	LLVMValueRef **next = arena_alloc(L->a, sizeof(LLVMValueRef *) * (k->nins + 1));
	LLVMValueRef *rnext = arena_alloc(L->a, sizeof(LLVMValueRef) * (k->nins + 1));
	if (L->ring) {
		LLVMValueRef first = LLVMBuildICmp(L->b, LLVMIntEQ, at, ci64(L, 0), "");
		LLVMValueRef back = LLVMBuildSelect(L->b, first, ci64(L, g->ahead * ring),
						    LLVMBuildSub(L->b, at, ci64(L, ring), ""), "");
		place_row(L, LLVMBuildAdd(L->b, rb,
					  LLVMBuildMul(L->b, stride, ci64(L, g->ahead), ""), ""));
		ring_fill(L, back);
		LLVMValueRef pending = ci32(L, g->ahead);
		intr(L, "llvm.nvvm.cp.async.wait.group", NULL, &pending, 1);
	}
	if (g->ahead) {
		place_row(L, rbn);
		if (!L->ring)
			issue_loads(L, SH_TILE, next);
		issue_row_loads(L, rnext);
	}
	for (int i = 0; i < k->nins; i++)
		if (cur[i])
			L->given[i] = cur[i];
	L->given_row = rcur;
	/* held [N] inputs unpacked in each block, not hoisted before the loop (held_in_block) */
	L->held_in_block = held;
	/* the next block's partials and ticket reuse the shared words this block read: a barrier */
	L->ring_at = at;
	block_code(L, rb, sampled, sm.red_bytes > 0, NULL);
	L->ring_at = NULL;
	L->given_row = NULL;
	LLVMValueRef at_next = NULL;
	if (L->ring) {
		LLVMValueRef last =
		    LLVMBuildICmp(L->b, LLVMIntEQ, at, ci64(L, g->ahead * ring), "");
		at_next = LLVMBuildSelect(L->b, last, ci64(L, 0),
					  LLVMBuildAdd(L->b, at, ci64(L, ring), ""), "");
	}
	LLVMBasicBlockRef latch = LLVMGetInsertBlock(L->b);
	LLVMBuildBr(L->b, head);
	LLVMAddIncoming(rb, &rbn, &latch, 1);
	if (L->ring)
		LLVMAddIncoming(at, &at_next, &latch, 1);
	for (int i = 0; i < k->nins; i++) {
		for (int j = 0; cur[i] && j < L->nvec; j++)
			LLVMAddIncoming(cur[i][j], &next[i][j], &latch, 1);
		if (rcur[i])
			LLVMAddIncoming(rcur[i], &rnext[i], &latch, 1);
	}
	colsum_close(L, csum, latch);
	LLVMPositionBuilderAtEnd(L->b, exit);
	if (L->ring) {
		/* every copy went to a block the loop read, so none is left in flight; the
		 * combine's partials may take the ring's place once every thread is past it */
		LLVMValueRef none = ci32(L, 0);
		intr(L, "llvm.nvvm.cp.async.wait.group", NULL, &none, 1);
		intr(L, "llvm.nvvm.barrier0", NULL, NULL, 0);
	}
	if (g->dynamic && !L->clc)
		counter_reset(L);
	if (k->plan->ncolsum) {
		if (L->csum_cols) {
			colsum_column_pass(L);
		} else {
			if (L->csum_late)
				colsum_own_pass(L);
			colsum_finish(L);
		}
		regions_tail(L);
	}
}

/* A CTA of one persistent row (m_block 1, its own row block) whose row is past M returns at
 * once, when no combine waits for every CTA of the grid: the manifest's grid has no such CTA, and
 * the return keeps a larger grid from writing past the outputs. LLVM then knows the row is real:
 * the masks of the row's vectors (the row is real and the vector inside the compiled N) fold to
 * true, no load or store needs a branch, and the row's code is one block that ptxas schedules
 * whole. The branches had split it: swiglu_bwd bf16 4096x4096 spilled 76 bytes under its
 * 64-register cap, and ran 57.2 us where it now runs 40.2 on an H200. Looped rows keep their
 * column masks, and rows of several a CTA their row masks, so neither gets the return
 * (docs/codegen.md, "Rows past M"). */
static void
past_m_exits(Lower *L)
{
	const Config *g = &L->c->cfg;
	if (!g->persistent || g->m_block != 1 || L->k->plan->ncolsum)
		return;
	LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(L->cx, L->fn, "row.real");
	LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(L->cx, L->fn, "row.past");
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, L->band, L->M, ""), go, out);
	LLVMPositionBuilderAtEnd(L->b, out);
	LLVMBuildRetVoid(L->b);
	LLVMPositionBuilderAtEnd(L->b, go);
}

void
lower_rows(Lower *L)
{
	if (L->c->cfg.grid > 0) {
		grid_loop(L);
	} else {
		past_m_exits(L);
		block_code(L, L->band, regions_sampled(L, L->band), 0, L->cta);
	}
	LLVMBuildRetVoid(L->b);
}
