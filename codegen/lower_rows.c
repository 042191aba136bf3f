/* Lowering: the passes over a row, as the plan (analysis/plan.c) says, looped and persistent. */
#include "codegen/lower.h"

/* One chunk of a pass: the marked tile instructions, folded into the reductions rs. Under the
 * stash a body chunk of the last reduction pass stores the stashed values, and one of the apply
 * pass reads them back (its need is cut there: plan_need_body); under the read-back a body chunk
 * of a later pass loads back the values an earlier pass stored (Plan.reload_at), its need cut
 * there. An edge chunk recomputes them. */
static void
chunk_body(Lower *L, Red *rs, int n, const Chunk *ch)
{
	const Kernel *k = L->k;
	const Plan *p = L->plan;
	int stash = L->stash && !ch->vcol;
	size_t at = (size_t)L->pass * (k->nins + 1);
	const char *back = L->reload && !ch->vcol ? p->reload_at + at : NULL;
	const char *need = back ? p->need_reload + at : plan_need_body(p, k, L->pass, stash);
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		if (stash && p->stash[i] && L->pass == p->nreduce) {
			stash_load(L, in, ch);
			continue;
		}
		if (back && back[i]) {
			reload_tile(L, &k->ins[p->reload[i] - 1], in, ch);
			continue;
		}
		if (!need[i] || instr_is_colsum_store(k, in))
			continue; /* a colsum's store is made once, after the last row */
		if (in->op == OP_COLSUM && (L->csum_late || L->csum_cols))
			continue; /* summed in a pass of its own, after the rows */
		if (in->op == OP_COLSUM)
			colsum_local(L, i, ch);
		else if (in->op == OP_STORE)
			store_tile(L, in, ch);
		else if (!op_is_reduce(in->op))
			lower_tile(L, in, ch);
		if (back && p->reload[i] && L->row_off[i] >= 0 &&
		    L->pass == p->pass[p->reload[i] - 1])
			keep_value(L, &k->ins[p->reload[i] - 1], in, ch);
		if (stash && p->stash[i] && L->pass == p->nreduce - 1)
			stash_store(L, in, ch);
	}
	for (int i = 0; i < n; i++)
		red_local(L, &rs[i], ch);
}

/* smem=2: the body chunk at base (none past the segment: every vector masked) of every kept load
 * copied to shared memory by cp.async, as one commit group. */
static void
fill_chunk(Lower *L, LLVMValueRef base)
{
	LLVMValueRef **el = L->el;
	Chunk ch = chunk_at(L, base);
	keep_async(L, &ch);
	intr(L, "llvm.nvvm.cp.async.commit.group", NULL, NULL, 0);
	L->el = el;
}

/* The chunks at start, start +- r_block, ... (down when back) while a chunk starts in [lo, hi):
 * the tile instructions the plan marks for the pass, folded into the reductions rs, whose partials
 * are carried as phis. whole: every such chunk lies in the body, so only rows past M mask it.
 * Under smem=2 the first pass's chunk waits for its copies (FILL_AHEAD - 1 later groups may still
 * be in flight), and once it is reduced the chunk FILL_AHEAD on is copied. */
static void
chunk_span(Lower *L, Red *rs, int n, LLVMValueRef start, LLVMValueRef lo, LLVMValueRef hi, int back,
	   int whole)
{
	int fill = L->c->cfg.smem == 2 && L->pass == 0;
	LLVMValueRef r = ci64(L, L->c->cfg.r_block);
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b);
	LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(L->cx, L->fn, "chunk");
	LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(L->cx, L->fn, "chunk.body");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(L->cx, L->fn, "chunk.done");
	LLVMBuildBr(L->b, head);
	LLVMPositionBuilderAtEnd(L->b, head);
	LLVMValueRef c = LLVMBuildPhi(L->b, L->i64, "");
	LLVMAddIncoming(c, &start, &pre, 1);
	RedPhi *phi = red_phis(L, rs, n, pre);
	LLVMValueRef go = LLVMBuildICmp(L->b, LLVMIntSLT, c, hi, "");
	if (back)
		go = LLVMBuildAnd(L->b, go, LLVMBuildICmp(L->b, LLVMIntSGE, c, lo, ""), "");
	LLVMBuildCondBr(L->b, go, body, done);
	LLVMPositionBuilderAtEnd(L->b, body);
	if (fill) {
		LLVMValueRef ahead = ci32(L, FILL_AHEAD - 1);
		intr(L, "llvm.nvvm.cp.async.wait.group", NULL, &ahead, 1);
	}
	Chunk ch = whole ? chunk_whole(L, c) : chunk_at(L, c);
	if (L->csum_smem) /* the chunk's colsum partials */
		L->csum_chunk = LLVMBuildUDiv(L->b, LLVMBuildSub(L->b, c, L->body_lo, ""),
					      ci64(L, L->c->cfg.r_block), "");
	chunk_body(L, rs, n, &ch);
	L->csum_chunk = NULL;
	if (fill)
		fill_chunk(L, LLVMBuildAdd(L->b, c, ci64(L, FILL_AHEAD * L->c->cfg.r_block), ""));
	LLVMValueRef c2 = back ? LLVMBuildSub(L->b, c, r, "") : LLVMBuildAdd(L->b, c, r, "");
	LLVMBasicBlockRef end = LLVMGetInsertBlock(L->b);
	LLVMBuildBr(L->b, head);
	LLVMAddIncoming(c, &c2, &end, 1);
	red_phis_close(rs, n, phi, end);
	LLVMPositionBuilderAtEnd(L->b, done);
}

/* Streams the segment's body [body_lo, body_hi) in r_block chunks, then the edge chunk when rows
 * may start misaligned. With scalar accesses (vec 1) every element of a chunk had its own column
 * compare and branch around its load: the whole chunks go first as a span of their own, which
 * needs no column masks and issues every load unconditionally, then the last chunk, cut by the
 * body's end, as a span of at most one chunk. Measured on an H200 (bench/results/
 * h200-2026-12-04-whole-chunks.md): at 30 picks with scalar accesses 0.806x the time by geomean
 * (0.528-1.056x); at 18 looped picks of 16-byte accesses, a compare a vector, 1.005x (0.977-1.122x,
 * rms_norm bf16 64x1000003 the 1.122), so there one span of masked chunks stays.
 *
 * Rows read from L2 or HBM (smem=0) walk the passes back and forth: an odd pass takes the edge
 * chunk first, then the body's chunks from the last down, so each pass starts on the chunks the
 * pass before read last, the ones the L2 still holds when the rows in flight overflow it. Measured
 * on an H200 at the 32 looped multi-pass picks of the suites (bench/results/
 * h200-2026-11-28-reverse.md): 0.978x the time by geomean, none slower by over 2%. */
static void
chunk_loop(Lower *L, Red *rs, int n)
{
	int back = (L->pass & 1) && !L->c->cfg.smem;
	region_mark(L, R_LOOP);
	if (back && L->shifted) {
		Chunk edge = chunk_edge(L);
		chunk_body(L, rs, n, &edge);
	}
	LLVMValueRef r = ci64(L, L->c->cfg.r_block);
	LLVMValueRef span = LLVMBuildSub(L->b, L->body_hi, L->body_lo, "");
	if (L->vec > 1) {
		LLVMValueRef start = L->body_lo;
		if (back) {
			LLVMValueRef last =
			    LLVMBuildSDiv(L->b, LLVMBuildSub(L->b, span, ci64(L, 1), ""), r, "");
			start = LLVMBuildAdd(L->b, L->body_lo, LLVMBuildMul(L->b, last, r, ""), "");
		}
		chunk_span(L, rs, n, start, L->body_lo, L->body_hi, back, 0);
	} else {
		LLVMValueRef cut =
		    LLVMBuildAdd(L->b, L->body_lo,
				 LLVMBuildMul(L->b, LLVMBuildSDiv(L->b, span, r, ""), r, ""), "");
		if (back) {
			chunk_span(L, rs, n, cut, cut, L->body_hi, 1, 0);
			chunk_span(L, rs, n, LLVMBuildSub(L->b, cut, r, ""), L->body_lo, cut, 1, 1);
		} else {
			chunk_span(L, rs, n, L->body_lo, L->body_lo, cut, 0, 1);
			chunk_span(L, rs, n, cut, cut, L->body_hi, 0, 0);
		}
	}
	if (L->shifted && !back) {
		Chunk edge = chunk_edge(L);
		chunk_body(L, rs, n, &edge);
	}
}

/* Looped (and split) rows: under smem=2 the kept rows' first chunks copied ahead, then the plan's
 * reduction passes, each streaming what plan_need_body marks, then its apply pass when it has
 * one. */
void
lower_looped(Lower *L)
{
	const Kernel *k = L->k;
	const Plan *p = L->plan;
	Red *rs = arena_alloc(L->a, sizeof(Red) * (k->nins + 1));
	L->last_read = plan_last_reads(p, k, L->c->dtype, L->stash);
	lower_ready_uniform(L);
	if (L->c->cfg.smem == 2) {
		/* the first FILL_AHEAD chunks in flight; each thread reads back only what it
		 * copied, so its own wait is the whole synchronisation */
		L->pass = 0;
		region_mark(L, R_FILL);
		for (int a = 0; a < FILL_AHEAD; a++)
			fill_chunk(L, LLVMBuildAdd(L->b, L->body_lo,
						   ci64(L, (long long)a * L->c->cfg.r_block), ""));
	}
	int n = 0;
	for (int pass = 0; pass < p->nreduce; pass++) {
		n = 0;
		for (int i = 0; i < k->nins; i++) {
			if (!op_is_reduce(k->ins[i].op) || p->pass[i] != pass || p->fused[i] >= 0)
				continue;
			rs[n] = red_new(L, i);
			for (int s = 0; s < k->nins; s++)
				if (p->fused[s] == i) {
					rs[n].sums[rs[n].nsums++] = s;
					rs[n].kind = K_MAXSUM;
					rs[n].ncomp = 1 + rs[n].nsums;
					red_identity(L, &rs[n]);
				}
			n++;
		}
		L->pass = pass;
		chunk_loop(L, rs, n);
		red_cross(L, rs, n);
		if (L->split > 1)
			break;
		red_finish(L, rs, n);
		lower_ready_uniform(L);
	}
	L->pass = p->nreduce;
	if (p->apply)
		chunk_loop(L, NULL, 0);
	region_mark(L, R_ROWS);
	cluster_done(L);
	if (L->split > 1) {
		split_finish(L, rs, n);
		return;
	}
	if_lane0_row(L);
	store_rows(L);
}

/* The row-value instructions a persistent row put off (plan_row_deferrable), in order. */
static void
lower_deferred(Lower *L, const int *later, int n)
{
	for (int d = 0; d < n; d++) {
		const Instr *in = &L->k->ins[later[d]];
		if (in->op != OP_STORE) /* row stores are made at the end (store_rows) */
			lower_uniform(L, in);
	}
}

/* The body chunk's vector j alone, as a chunk of one vector: the values already made over the
 * whole chunk are seen at their elements of vector j, and what is made over it stays its own. */
static Chunk
chunk_step(Lower *L, const Chunk *ch, int j)
{
	Chunk s = {.vec = ch->vec, .nvec = 1, .E = ch->vec, .valid = &ch->valid[j]};
	s.col = LLVMBuildAdd(L->b, ch->col, ci64(L, (long long)j * L->tpr * ch->vec), "");
	s.el = arena_alloc(L->a, sizeof(LLVMValueRef *) * (L->k->nvals + 1));
	for (int v = 0; v < L->k->nvals; v++)
		s.el[v] = ch->el[v] ? ch->el[v] + (size_t)j * ch->vec : NULL;
	return s;
}

/* Whether in works on a row's elements: a full-width store, a tile result or a tile operand (a
 * discarded result has no shape to say so). */
static int
elementwise(Lower *L, const Instr *in)
{
	if (in->op == OP_STORE)
		return plan_is_tile_store(L->k, in);
	if (in->nres > 0 && in->res[0] >= 0)
		return is_tile(L, in->res[0]);
	for (int j = 0; j < in->nargs; j++)
		if (in->args[j].kind == ARG_VAL && is_tile(L, in->args[j].idx))
			return 1;
	return 0;
}

/* The tile operands of in not yet made over chunk ch: a load is issued at its first use, so a row
 * input used only after a reduction (a weight, a residual) is not held in registers across it. */
static void
tile_operands(Lower *L, const Instr *in, const Chunk *ch)
{
	for (int j = 0; j < in->nargs; j++) {
		const Arg *a = &in->args[j];
		if (a->kind == ARG_VAL && is_tile(L, a->idx) && !ch->el[a->idx])
			lower_tile(L, &L->k->ins[L->k->vals[a->idx].def], ch);
	}
}

/* An element-wise instruction of a persistent row over chunk ch, its tile operands first; one
 * whose result is discarded makes nothing. */
static void
tile_instr(Lower *L, const Instr *in, const Chunk *ch)
{
	if (!elementwise(L, in) || (in->op != OP_STORE && (in->nres == 0 || in->res[0] < 0)))
		return;
	tile_operands(L, in, ch);
	if (in->op == OP_STORE)
		store_tile(L, in, ch);
	else if (in->op != OP_LOAD)
		lower_tile(L, in, ch);
}

/* steps=1: the row's tail (Plan.tail on: element-wise work, row values and stores, no
 * reduction) made a vector at a time, each vector's loads, arithmetic and stores before the next
 * one's, after the tail's row values. A weight or bias the tail reads then takes registers for a
 * vector, not for the row, and the row's values die a vector at a time: ptxas does not move a
 * vector's loads above the stores of the one before. The edge chunk, a few scalars, goes whole. */
static void
lower_tail_steps(Lower *L, const Chunk *chs, int nch)
{
	const Kernel *k = L->k;
	int from = L->plan->tail;
	for (int i = from; i < k->nins; i++)
		if (!elementwise(L, &k->ins[i]) && k->ins[i].op != OP_STORE)
			lower_uniform(L, &k->ins[i]);
	for (int j = 0; j < chs[0].nvec; j++) {
		Chunk s = chunk_step(L, &chs[0], j);
		for (int i = from; i < k->nins; i++)
			tile_instr(L, &k->ins[i], &s);
	}
	for (int c = 1; c < nch; c++)
		for (int i = from; i < k->nins; i++)
			tile_instr(L, &k->ins[i], &chs[c]);
}

/* Persistent rows: one chunk covers the row, so every N-shaped value stays in registers and the
 * body runs in program order. Reductions wait until a result is needed, so independent ones share
 * the shuffles and the barrier; an instruction of row values only that needs a pending result is
 * put off until then, so it does not make an exchange of its own (the plan counts the exchanges
 * the same way: row_exchanges, analysis/plan.c). Under steps=1 the row's tail, from the
 * instruction that makes the last exchange, is made a vector at a time (lower_tail_steps). */
void
lower_persistent(Lower *L)
{
	const Kernel *k = L->k;
	Chunk chs[2];
	int nch = 1 + L->shifted;
	region_mark(L, R_BODY);
	chs[0] = chunk_at(L, L->body_lo);
	if (L->shifted)
		chs[1] = chunk_edge(L);
	Red *pend = arena_alloc(L->a, sizeof(Red) * (k->nins + 1));
	int *later = arena_alloc(L->a, sizeof(int) * (k->nins + 1));
	int np = 0, nl = 0;
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		int waits = 0;
		for (int j = 0; j < in->nargs; j++)
			if (in->args[j].kind == ARG_VAL && !is_tile(L, in->args[j].idx) &&
			    !L->uni[in->args[j].idx])
				waits = 1;
		if (waits && plan_row_deferrable(k, in)) {
			later[nl++] = i;
			continue;
		}
		if (waits) {
			red_cross_held(L, pend, np, chs, nch);
			red_finish(L, pend, np);
			lower_deferred(L, later, nl);
			region_mark(L, R_BODY);
			np = nl = 0;
			if (L->c->cfg.steps && i == L->plan->tail) {
				lower_tail_steps(L, chs, nch);
				break;
			}
		}
		if (instr_is_colsum_store(k, in))
			continue; /* made once, after the last row (colsum_finish) */
		for (int c = 0; c < nch; c++)
			tile_operands(L, in, &chs[c]);
		if (op_is_reduce(in->op)) {
			pend[np] = red_new_held(L, i);
			for (int c = 0; c < nch; c++)
				red_local(L, &pend[np], &chs[c]);
			np++;
		} else if (in->op == OP_COLSUM) {
			for (int c = 0; c < nch && !L->csum_cols; c++)
				colsum_local(L, i, &chs[c]);
		} else if (in->op == OP_STORE) {
			if (plan_is_tile_store(k, in))
				for (int c = 0; c < nch; c++)
					store_tile(L, in, &chs[c]);
		} else if (in->nres > 0 && in->res[0] >= 0 && is_tile(L, in->res[0])) {
			if (in->op != OP_LOAD)
				for (int c = 0; c < nch; c++)
					lower_tile(L, in, &chs[c]);
		} else {
			lower_uniform(L, in);
		}
	}
	red_cross_held(L, pend, np, chs, nch);
	red_finish(L, pend, np);
	lower_deferred(L, later, nl);
	region_mark(L, R_ROWS);
	cluster_done(L);
	if_lane0_row(L);
	store_rows(L);
}
