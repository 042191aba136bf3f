/* Lowering: a kernel and a config to one PTX kernel in an LLVM module (DESIGN.md §8). */
#include <math.h>
#include <string.h>

#include "codegen/lower.h"

static void
red_identity(Lower *L, Red *r)
{
	switch (r->kind) {
	case K_SUM:
		r->acc[0] = cf(L, 0);
		break;
	case K_MAX:
		r->acc[0] = cf(L, -INFINITY);
		break;
	case K_MIN:
		r->acc[0] = cf(L, INFINITY);
		break;
	case K_WELF:
		r->acc[0] = r->acc[1] = r->acc[2] = cf(L, 0);
		break;
	default: /* K_MAXSUM */
		r->acc[0] = cf(L, -INFINITY);
		r->acc[1] = cf(L, 0);
		break;
	}
}

static Red
red_new(Lower *L, int i)
{
	const Instr *in = &L->k->ins[i];
	Red r = {.ins = i, .ins2 = -1};
	switch (in->op) {
	case OP_RSUM:
		r.kind = K_SUM;
		break;
	case OP_RMAX:
		r.kind = K_MAX;
		break;
	case OP_RMIN:
		r.kind = K_MIN;
		break;
	default:
		r.kind = K_WELF;
		break;
	}
	r.ncomp = r.kind == K_WELF ? 3 : 1;
	red_identity(L, &r);
	return r;
}

/* Chan et al.: merge (count, mean, M2) partials; an empty side leaves the other unchanged. */
static void
chan(Lower *L, LLVMValueRef *a, LLVMValueRef *b, LLVMValueRef *out)
{
	LLVMValueRef n = ffadd(L, a[0], b[0]);
	LLVMValueRef pos = LLVMBuildFCmp(L->b, LLVMRealOGT, n, cf(L, 0), "");
	LLVMValueRef rn = LLVMBuildSelect(L->b, pos, frcp(L, n), cf(L, 0), "");
	LLVMValueRef dl = ffsub(L, b[1], a[1]);
	LLVMValueRef wb = ffmul(L, b[0], rn);
	out[1] = ffadd(L, a[1], ffmul(L, dl, wb));
	LLVMValueRef t = ffmul(L, ffmul(L, dl, dl), ffmul(L, a[0], wb));
	out[2] = ffadd(L, ffadd(L, a[2], b[2]), t);
	out[0] = n;
}

static void
combine(Lower *L, int kind, LLVMValueRef *a, LLVMValueRef *b, LLVMValueRef *out)
{
	switch (kind) {
	case K_SUM:
		out[0] = ffadd(L, a[0], b[0]);
		break;
	case K_MAX:
		out[0] = fmax2(L, a[0], b[0]);
		break;
	case K_MIN:
		out[0] = fmin2(L, a[0], b[0]);
		break;
	case K_WELF:
		chan(L, a, b, out);
		break;
	default: {
		LLVMValueRef m = fmax2(L, a[0], b[0]);
		LLVMValueRef s = ffadd(L, ffmul(L, a[1], rescale(L, a[0], m)),
				       ffmul(L, b[1], rescale(L, b[0], m)));
		out[0] = m;
		out[1] = s;
	}
	}
}

/* Folds the thread's elements of the chunk into the reduction's partial. Masked-out vectors
 * contribute the identity; a vector is folded first, then selected, which saves selects. */
static void
red_local(Lower *L, Red *r, const Chunk *ch)
{
	const Instr *in = &L->k->ins[r->ins];
	LLVMValueRef *x = ch->el[in->args[0].idx];
	if (r->kind == K_WELF) {
		LLVMValueRef cnt = cf(L, 0), s = cf(L, 0);
		for (int j = 0; j < ch->nvec; j++) {
			LLVMValueRef v = x[j * ch->vec];
			for (int e = 1; e < ch->vec; e++)
				v = ffadd(L, v, x[j * ch->vec + e]);
			s = ffadd(L, s, LLVMBuildSelect(L->b, ch->valid[j], v, cf(L, 0), ""));
			cnt = ffadd(
			    L, cnt,
			    LLVMBuildSelect(L->b, ch->valid[j], cf(L, ch->vec), cf(L, 0), ""));
		}
		LLVMValueRef mean = ffmul(L, s, frcp(L, fmax2(L, cnt, cf(L, 1))));
		LLVMValueRef m2 = cf(L, 0);
		for (int j = 0; j < ch->nvec; j++) {
			LLVMValueRef v = cf(L, 0);
			for (int e = 0; e < ch->vec; e++) {
				LLVMValueRef dl = ffsub(L, x[j * ch->vec + e], mean);
				v = ffadd(L, v, ffmul(L, dl, dl));
			}
			m2 = ffadd(L, m2, LLVMBuildSelect(L->b, ch->valid[j], v, cf(L, 0), ""));
		}
		LLVMValueRef part[3] = {cnt, mean, m2};
		chan(L, r->acc, part, r->acc);
		return;
	}
	if (r->kind == K_MAXSUM) {
		LLVMValueRef cm = cf(L, -INFINITY);
		for (int j = 0; j < ch->nvec; j++) {
			LLVMValueRef v = x[j * ch->vec];
			for (int e = 1; e < ch->vec; e++)
				v = fmax2(L, v, x[j * ch->vec + e]);
			cm = fmax2(L, cm,
				   LLVMBuildSelect(L->b, ch->valid[j], v, cf(L, -INFINITY), ""));
		}
		LLVMValueRef m = fmax2(L, r->acc[0], cm);
		/* the sum's terms are exp(t - m); t comes from the fused sum's sub */
		const Instr *sum = &L->k->ins[r->ins2];
		const Instr *ex = &L->k->ins[L->k->vals[sum->args[0].idx].def];
		const Instr *sub = &L->k->ins[L->k->vals[ex->args[0].idx].def];
		LLVMValueRef *t = ch->el[sub->args[0].idx];
		LLVMValueRef s = cf(L, 0);
		for (int j = 0; j < ch->nvec; j++) {
			LLVMValueRef v = cf(L, 0);
			for (int e = 0; e < ch->vec; e++)
				v = ffadd(L, v, fexp(L, ffsub(L, t[j * ch->vec + e], m)));
			s = ffadd(L, s, LLVMBuildSelect(L->b, ch->valid[j], v, cf(L, 0), ""));
		}
		r->acc[1] = ffadd(L, ffmul(L, r->acc[1], rescale(L, r->acc[0], m)), s);
		r->acc[0] = m;
		return;
	}
	LLVMValueRef id =
	    r->kind == K_SUM ? cf(L, 0) : cf(L, r->kind == K_MAX ? -INFINITY : INFINITY);
	for (int j = 0; j < ch->nvec; j++) {
		LLVMValueRef v = x[j * ch->vec];
		for (int e = 1; e < ch->vec; e++) {
			LLVMValueRef a[3] = {v}, b[3] = {x[j * ch->vec + e]}, o[3];
			combine(L, r->kind, a, b, o);
			v = o[0];
		}
		LLVMValueRef a[3] = {r->acc[0]},
			     b[3] = {LLVMBuildSelect(L->b, ch->valid[j], v, id, "")};
		combine(L, r->kind, a, b, r->acc);
	}
}

static void
barrier(Lower *L)
{
	intr(L, "llvm.nvvm.barrier0", NULL, NULL, 0);
}

static LLVMValueRef
shfl(Lower *L, const char *name, LLVMValueRef v, LLVMValueRef lane)
{
	LLVMValueRef a[4] = {ci32(L, -1), v, lane, ci32(L, 31)};
	return intr(L, name, NULL, a, 4);
}

/* Reduces the partials of a row's threads: butterfly shuffles within the warp (width tpr when
 * the row has fewer than 32 threads), then, when the row spans several warps, shared memory read
 * back in warp order. Every thread of the row ends with the same value. */
static void
red_cross(Lower *L, Red *rs, int n)
{
	if (n == 0)
		return;
	int w = L->tpr < 32 ? L->tpr : 32;
	for (int off = w / 2; off >= 1; off /= 2)
		for (int i = 0; i < n; i++) {
			LLVMValueRef o[3];
			for (int c = 0; c < rs[i].ncomp; c++)
				o[c] = shfl(L, "llvm.nvvm.shfl.sync.bfly.f32", rs[i].acc[c],
					    ci32(L, off));
			combine(L, rs[i].kind, rs[i].acc, o, rs[i].acc);
		}
	/* Chan's merge is not symmetric: take the first lane's result so the row agrees */
	LLVMValueRef lead = LLVMBuildAnd(L->b, L->lane32, ci32(L, ~(w - 1)), "");
	for (int i = 0; i < n; i++)
		if (rs[i].kind == K_WELF && w > 1)
			for (int c = 0; c < 3; c++)
				rs[i].acc[c] =
				    shfl(L, "llvm.nvvm.shfl.sync.idx.f32", rs[i].acc[c], lead);
	if (L->wpr == 1)
		return;
	int nw = L->c->cfg.num_warps, base = L->smem_next;
	for (int i = 0; i < n; i++)
		L->smem_next += rs[i].ncomp;
	LLVMTypeRef at = LLVMArrayType(L->f32, 0);
	LLVMBasicBlockRef wr = LLVMAppendBasicBlockInContext(L->cx, L->fn, "smem.wr");
	LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(L->cx, L->fn, "smem.rd");
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, L->lane32, ci32(L, 0), ""), wr, next);
	LLVMPositionBuilderAtEnd(L->b, wr);
	for (int i = 0, s = base; i < n; i++)
		for (int c = 0; c < rs[i].ncomp; c++, s++) {
			LLVMValueRef ix[2] = {ci32(L, 0),
					      LLVMBuildAdd(L->b, L->warp, ci32(L, s * nw), "")};
			LLVMValueRef p = LLVMBuildGEP2(L->b, at, L->smem, ix, 2, "");
			LLVMSetAlignment(LLVMBuildStore(L->b, rs[i].acc[c], p), 4);
		}
	LLVMBuildBr(L->b, next);
	LLVMPositionBuilderAtEnd(L->b, next);
	barrier(L);
	LLVMValueRef w0 = LLVMBuildMul(L->b, L->grp, ci32(L, L->wpr), "");
	for (int i = 0, s = base; i < n; s += rs[i].ncomp, i++) {
		LLVMValueRef acc[3];
		for (int k = 0; k < L->wpr; k++) {
			LLVMValueRef v[3];
			for (int c = 0; c < rs[i].ncomp; c++) {
				LLVMValueRef at_w =
				    LLVMBuildAdd(L->b, w0, ci32(L, (s + c) * nw + k), "");
				LLVMValueRef ix[2] = {ci32(L, 0), at_w};
				LLVMValueRef p = LLVMBuildGEP2(L->b, at, L->smem, ix, 2, "");
				v[c] = LLVMBuildLoad2(L->b, L->f32, p, "");
				LLVMSetAlignment(v[c], 4);
			}
			if (k == 0)
				memcpy(acc, v, sizeof v);
			else
				combine(L, rs[i].kind, acc, v, acc);
		}
		memcpy(rs[i].acc, acc, sizeof acc);
	}
}

/* The row values of finished reductions. */
static void
red_finish(Lower *L, Red *rs, int n)
{
	for (int i = 0; i < n; i++) {
		const Instr *in = &L->k->ins[rs[i].ins];
		for (int c = 0; c < in->nres; c++)
			if (in->res[c] >= 0)
				L->uni[in->res[c]] = rs[i].acc[c];
		if (rs[i].kind == K_MAXSUM && L->k->ins[rs[i].ins2].res[0] >= 0)
			L->uni[L->k->ins[rs[i].ins2].res[0]] = rs[i].acc[1];
	}
}

/* Stores of [M] outputs: one thread per row, only for real rows. */
static void
store_rows(Lower *L)
{
	for (int i = 0; i < L->k->nins; i++) {
		const Instr *in = &L->k->ins[i];
		if (in->op != OP_STORE || shape_has_n(L->k->params[in->param].shape))
			continue;
		const Param *p = &L->k->params[in->param];
		LLVMTypeRef st = storage_type(L, p->type);
		LLVMValueRef ptr = LLVMBuildGEP2(L->b, st, L->parg[in->param], &L->row, 1, "");
		LLVMValueRef s =
		    LLVMBuildStore(L->b, to_storage(L, p->type, operand(L, &in->args[0], 0)), ptr);
		LLVMSetAlignment(s, type_size(type_resolve(p->type, L->c->dtype)));
	}
}

static void
if_lane0_row(Lower *L)
{
	LLVMValueRef l0 = LLVMBuildICmp(L->b, LLVMIntEQ, L->lane, ci64(L, 0), "");
	LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(L->cx, L->fn, "row.out");
	L->end = LLVMAppendBasicBlockInContext(L->cx, L->fn, "end");
	LLVMBuildCondBr(L->b, LLVMBuildAnd(L->b, l0, L->rowok, ""), yes, L->end);
	LLVMPositionBuilderAtEnd(L->b, yes);
}

static LLVMValueRef
ws_ptr(Lower *L, LLVMValueRef idx, LLVMTypeRef t)
{
	return LLVMBuildGEP2(L->b, t, L->ws, &idx, 1, "");
}

/* Split rows: each CTA's partials go to the workspace; the CTA that finishes a row last (an
 * atomic counter per row) merges all of them in segment order, so the result does not depend on
 * which CTA was last, writes the row's outputs and zeroes the counter for the next launch. */
static void
split_finish(Lower *L, Red *rs, int n)
{
	int nv = 0;
	for (int i = 0; i < n; i++)
		nv += rs[i].ncomp;
	int split = L->split;
	/* the u32 counters come first, padded to 16 bytes */
	LLVMValueRef cnt_words = LLVMBuildMul(
	    L->b, LLVMBuildUDiv(L->b, LLVMBuildAdd(L->b, L->M, ci64(L, 3), ""), ci64(L, 4), ""),
	    ci64(L, 4), "");
	LLVMValueRef part0 = LLVMBuildAdd(
	    L->b, cnt_words,
	    LLVMBuildMul(
		L->b,
		LLVMBuildAdd(L->b, LLVMBuildMul(L->b, L->row, ci64(L, split), ""), L->seg, ""),
		ci64(L, nv), ""),
	    "");
	for (int i = 0, s = 0; i < n; i++)
		for (int c = 0; c < rs[i].ncomp; c++, s++) {
			LLVMValueRef p =
			    ws_ptr(L, LLVMBuildAdd(L->b, part0, ci64(L, s), ""), L->f32);
			LLVMSetAlignment(LLVMBuildStore(L->b, rs[i].acc[c], p), 4);
		}
	intr(L, "llvm.nvvm.membar.gl", NULL, NULL, 0);
	LLVMValueRef cp = ws_ptr(L, L->row, L->i32);
	LLVMValueRef old = LLVMBuildAtomicRMW(L->b, LLVMAtomicRMWBinOpAdd, cp, ci32(L, 1),
					      LLVMAtomicOrderingMonotonic, 0);
	LLVMBasicBlockRef last = LLVMAppendBasicBlockInContext(L->cx, L->fn, "split.last");
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, old, ci32(L, split - 1), ""), last,
			L->end);
	LLVMPositionBuilderAtEnd(L->b, last);
	intr(L, "llvm.nvvm.membar.gl", NULL, NULL, 0);
	LLVMValueRef rbase = LLVMBuildAdd(
	    L->b, cnt_words, LLVMBuildMul(L->b, L->row, ci64(L, (long long)split * nv), ""), "");
	for (int g = 0; g < split; g++)
		for (int i = 0, s = 0; i < n; s += rs[i].ncomp, i++) {
			LLVMValueRef v[3];
			for (int c = 0; c < rs[i].ncomp; c++) {
				LLVMValueRef ix = LLVMBuildAdd(
				    L->b, rbase, ci64(L, (long long)g * nv + s + c), "");
				v[c] = LLVMBuildLoad2(L->b, L->f32, ws_ptr(L, ix, L->f32), "");
				LLVMSetVolatile(v[c], 1);
				LLVMSetAlignment(v[c], 4);
			}
			if (g == 0)
				memcpy(rs[i].acc, v, sizeof v);
			else
				combine(L, rs[i].kind, rs[i].acc, v, rs[i].acc);
		}
	LLVMSetAlignment(LLVMBuildStore(L->b, ci32(L, 0), cp), 4);
	red_finish(L, rs, n);
	lower_ready_uniform(L);
	store_rows(L);
}

/* Marks the tile instructions a pass must evaluate per chunk: the N-shaped values feeding want. */
static void
cone(Lower *L, char *want, char *need)
{
	const Kernel *k = L->k;
	memset(need, 0, k->nins);
	for (int i = k->nins - 1; i >= 0; i--) {
		const Instr *in = &k->ins[i];
		int hit = 0;
		for (int r = 0; r < in->nres; r++)
			if (in->res[r] >= 0 && want[in->res[r]])
				hit = 1;
		if (in->op == OP_STORE && want[k->nvals + i])
			hit = 1;
		if (!hit)
			continue;
		need[i] = 1;
		for (int j = 0; j < in->nargs; j++)
			if (in->args[j].kind == ARG_VAL && is_tile(L, in->args[j].idx))
				want[in->args[j].idx] = 1;
	}
}

/* One chunk of a pass: the marked tile instructions, folded into the reductions rs. */
static void
chunk_body(Lower *L, const char *need, Red *rs, int n, const Chunk *ch)
{
	const Kernel *k = L->k;
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		if (!need[i])
			continue;
		if (in->op == OP_STORE)
			store_tile(L, in, ch);
		else if (!op_is_reduce(in->op))
			lower_tile(L, in, ch);
	}
	for (int i = 0; i < n; i++)
		red_local(L, &rs[i], ch);
}

/* Streams the segment's body [body_lo, body_hi) in r_block chunks, evaluating the marked tile
 * instructions and folding them into the reductions rs, whose partials are carried as phis;
 * then the edge chunk when rows may start misaligned. */
static void
chunk_loop(Lower *L, const char *need, Red *rs, int n)
{
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b);
	LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(L->cx, L->fn, "chunk");
	LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(L->cx, L->fn, "chunk.body");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(L->cx, L->fn, "chunk.done");
	LLVMBuildBr(L->b, head);
	LLVMPositionBuilderAtEnd(L->b, head);
	LLVMValueRef c = LLVMBuildPhi(L->b, L->i64, "");
	LLVMAddIncoming(c, &L->body_lo, &pre, 1);
	LLVMValueRef(*phi)[3] = arena_alloc(L->a, sizeof(LLVMValueRef[3]) * (n + 1));
	for (int i = 0; i < n; i++)
		for (int j = 0; j < rs[i].ncomp; j++) {
			phi[i][j] = LLVMBuildPhi(L->b, L->f32, "");
			LLVMAddIncoming(phi[i][j], &rs[i].acc[j], &pre, 1);
			rs[i].acc[j] = phi[i][j];
		}
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, c, L->body_hi, ""), body, done);
	LLVMPositionBuilderAtEnd(L->b, body);
	Chunk ch = chunk_at(L, c);
	chunk_body(L, need, rs, n, &ch);
	LLVMValueRef c2 = LLVMBuildAdd(L->b, c, ci64(L, L->c->cfg.r_block), "");
	LLVMBasicBlockRef end = LLVMGetInsertBlock(L->b);
	LLVMBuildBr(L->b, head);
	LLVMAddIncoming(c, &c2, &end, 1);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < rs[i].ncomp; j++) {
			LLVMAddIncoming(phi[i][j], &rs[i].acc[j], &end, 1);
			rs[i].acc[j] = phi[i][j];
		}
	LLVMPositionBuilderAtEnd(L->b, done);
	if (L->shifted) {
		Chunk edge = chunk_edge(L);
		chunk_body(L, need, rs, n, &edge);
	}
}

/* Marks the full-width stores whose value is known once the reductions before pass are done: a
 * store that needs no later reduction rides along with that pass instead of reading the row again
 * (jsd's dX needs no reduction at all). */
static int
want_stores(Lower *L, char *want, int pass)
{
	const Kernel *k = L->k;
	int n = 0;
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		if (in->op != OP_STORE || !shape_has_n(k->params[in->param].shape))
			continue;
		int lvl = in->args[0].kind == ARG_VAL ? L->plan.lvl[in->args[0].idx] : 0;
		if (lvl == pass) {
			want[k->nvals + i] = 1;
			n++;
		}
	}
	return n;
}

/* Marks what pass reads (the tile instructions in need): its reductions' operands, with the
 * terms of a fused max/sum pair, and its full-width stores; pass npasses is the apply pass.
 * Returns the number of stores. */
static int
pass_need(Lower *L, int pass, char *want, char *need)
{
	const Kernel *k = L->k;
	const Plan *p = &L->plan;
	memset(want, 0, k->nvals + k->nins);
	for (int i = 0; i < k->nins && pass < p->npasses; i++) {
		if (p->pass[i] != pass || p->fused[i] >= 0)
			continue;
		want[k->ins[i].args[0].idx] = 1;
		for (int s = 0; s < k->nins; s++)
			if (p->fused[s] == i) {
				const Instr *ex = &k->ins[k->vals[k->ins[s].args[0].idx].def];
				want[k->ins[k->vals[ex->args[0].idx].def].args[0].idx] = 1;
			}
	}
	int n = want_stores(L, want, pass);
	cone(L, want, need);
	return n;
}

/* Looped (and split) rows: one streaming pass per level of dependent reductions, then an apply
 * pass for the full-width outputs that need the last level. */
static void
lower_looped(Lower *L)
{
	const Kernel *k = L->k;
	const Plan *p = &L->plan;
	char *want = arena_alloc(L->a, k->nvals + k->nins);
	char *need = arena_alloc(L->a, k->nins);
	Red *rs = arena_alloc(L->a, sizeof(Red) * (k->nins + 1));
	/* which pass reads each load last, for the eviction hints */
	L->last_read = arena_alloc(L->a, sizeof(int) * (k->nins + 1));
	for (int pass = 0; pass <= p->npasses && (pass == 0 || L->split == 1); pass++) {
		pass_need(L, pass, want, need);
		for (int i = 0; i < k->nins; i++)
			if (need[i] && k->ins[i].op == OP_LOAD)
				L->last_read[i] = pass;
	}
	lower_ready_uniform(L);
	int n = 0;
	for (int pass = 0; pass < p->npasses; pass++) {
		n = 0;
		for (int i = 0; i < k->nins; i++) {
			if (p->pass[i] != pass || p->fused[i] >= 0)
				continue;
			rs[n] = red_new(L, i);
			for (int s = 0; s < k->nins; s++)
				if (p->fused[s] == i) {
					rs[n].ins2 = s;
					rs[n].kind = K_MAXSUM;
					rs[n].ncomp = 2;
					red_identity(L, &rs[n]);
				}
			n++;
		}
		L->pass = pass;
		pass_need(L, pass, want, need);
		chunk_loop(L, need, rs, n);
		red_cross(L, rs, n);
		if (L->split > 1)
			break;
		red_finish(L, rs, n);
		lower_ready_uniform(L);
	}
	L->pass = p->npasses;
	if (pass_need(L, p->npasses, want, need))
		chunk_loop(L, need, NULL, 0);
	if_lane0_row(L);
	if (L->split > 1)
		split_finish(L, rs, n);
	else
		store_rows(L);
}

/* Persistent rows: one chunk covers the row, so every N-shaped value stays in registers and the
 * body runs in program order. Reductions wait until a result is needed, so independent ones share
 * the shuffles and the barrier. */
static void
lower_persistent(Lower *L)
{
	const Kernel *k = L->k;
	Chunk chs[2];
	int nch = 1 + L->shifted;
	chs[0] = chunk_at(L, L->body_lo);
	if (L->shifted)
		chs[1] = chunk_edge(L);
	Red *pend = arena_alloc(L->a, sizeof(Red) * (k->nins + 1));
	int np = 0;
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		int waits = 0;
		for (int j = 0; j < in->nargs; j++)
			if (in->args[j].kind == ARG_VAL && !is_tile(L, in->args[j].idx) &&
			    !L->uni[in->args[j].idx])
				waits = 1;
		if (waits) {
			red_cross(L, pend, np);
			red_finish(L, pend, np);
			np = 0;
		}
		/* a load is issued at its first use, so a row input used only after a reduction
		 * (a weight, a residual) is not held in registers across it */
		for (int c = 0; c < nch; c++)
			for (int j = 0; j < in->nargs; j++) {
				const Arg *a = &in->args[j];
				if (a->kind == ARG_VAL && is_tile(L, a->idx) && !chs[c].el[a->idx])
					lower_tile(L, &k->ins[k->vals[a->idx].def], &chs[c]);
			}
		if (op_is_reduce(in->op)) {
			pend[np] = red_new(L, i);
			for (int c = 0; c < nch; c++)
				red_local(L, &pend[np], &chs[c]);
			np++;
		} else if (in->op == OP_STORE) {
			if (shape_has_n(k->params[in->param].shape))
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
	red_cross(L, pend, np);
	red_finish(L, pend, np);
	if_lane0_row(L);
	store_rows(L);
}

static LLVMValueRef
sreg(Lower *L, const char *name)
{
	return intr(L, name, NULL, NULL, 0);
}

/* Kernel arguments and the thread's place: its row, its lane within the row and its segment. */
static void
prologue(Lower *L)
{
	const Kernel *k = L->k;
	const Config *g = &L->c->cfg;
	int np = k->nparams + 2 + (L->split > 1);
	LLVMTypeRef *pt = arena_alloc(L->a, sizeof(LLVMTypeRef) * np);
	for (int i = 0; i < k->nparams; i++)
		pt[i] = k->params[i].kind == P_PARAM ? L->f32 : L->ptr1;
	pt[k->nparams] = pt[k->nparams + 1] = L->i64;
	if (L->split > 1)
		pt[k->nparams + 2] = L->ptr1;
	L->fn = LLVMAddFunction(L->mod, k->name,
				LLVMFunctionType(LLVMVoidTypeInContext(L->cx), pt, np, 0));
	if (!L->host)
		LLVMSetFunctionCallConv(L->fn, LLVMPTXKernelCallConv);
	L->pt = pt;
	L->np = np;
	unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
	unsigned ro = LLVMGetEnumAttributeKindForName("readonly", 8);
	L->parg = arena_alloc(L->a, sizeof(LLVMValueRef) * k->nparams);
	for (int i = 0; i < k->nparams; i++) {
		L->parg[i] = LLVMGetParam(L->fn, i);
		LLVMSetValueName2(L->parg[i], k->params[i].name, strlen(k->params[i].name));
		if (k->params[i].kind == P_PARAM)
			continue;
		LLVMAddAttributeAtIndex(L->fn, i + 1, LLVMCreateEnumAttribute(L->cx, noalias, 0));
		if (k->params[i].kind == P_IN)
			LLVMAddAttributeAtIndex(L->fn, i + 1,
						LLVMCreateEnumAttribute(L->cx, ro, 0));
	}
	L->M = LLVMGetParam(L->fn, k->nparams);
	L->N = LLVMGetParam(L->fn, k->nparams + 1);
	LLVMSetValueName2(L->M, "M", 1);
	LLVMSetValueName2(L->N, "N", 1);
	if (L->split > 1) {
		L->ws = LLVMGetParam(L->fn, k->nparams + 2);
		LLVMSetValueName2(L->ws, "workspace", 9);
		LLVMAddAttributeAtIndex(L->fn, k->nparams + 3,
					LLVMCreateEnumAttribute(L->cx, noalias, 0));
	}
	LLVMPositionBuilderAtEnd(L->b, LLVMAppendBasicBlockInContext(L->cx, L->fn, "entry"));
	L->Nf = LLVMBuildSIToFP(L->b, L->N, L->f32, "");
	LLVMValueRef tid = sreg(L, "llvm.nvvm.read.ptx.sreg.tid.x");
	LLVMValueRef cta =
	    LLVMBuildZExt(L->b, sreg(L, "llvm.nvvm.read.ptx.sreg.ctaid.x"), L->i64, "");
	L->grp = LLVMBuildUDiv(L->b, tid, ci32(L, L->tpr), "");
	L->lane = LLVMBuildZExt(L->b, LLVMBuildURem(L->b, tid, ci32(L, L->tpr), ""), L->i64, "");
	L->lofs = LLVMBuildMul(L->b, L->lane, ci64(L, L->vec), "");
	L->lane32 = LLVMBuildURem(L->b, tid, ci32(L, 32), "");
	L->warp = LLVMBuildUDiv(L->b, tid, ci32(L, 32), "");
	LLVMValueRef rb = LLVMBuildUDiv(L->b, cta, ci64(L, L->split), "");
	L->seg = LLVMBuildURem(L->b, cta, ci64(L, L->split), "");
	L->row = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, rb, ci64(L, g->m_block), ""),
			      LLVMBuildZExt(L->b, L->grp, L->i64, ""), "");
	L->rowok = LLVMBuildICmp(L->b, LLVMIntSLT, L->row, L->M, "");
	/* rows past M read row M-1 (masked out), so no load needs a branch */
	LLVMValueRef rowc =
	    LLVMBuildSelect(L->b, L->rowok, L->row, LLVMBuildSub(L->b, L->M, ci64(L, 1), ""), "");
	L->rowoff = LLVMBuildMul(L->b, rowc, L->N, "");
	if (L->split > 1) {
		/* segments are whole chunks: cdiv(cdiv(N, split), r_block) * r_block columns */
		LLVMValueRef per =
		    LLVMBuildSDiv(L->b, LLVMBuildAdd(L->b, L->N, ci64(L, L->split - 1), ""),
				  ci64(L, L->split), "");
		LLVMValueRef rbk = ci64(L, g->r_block);
		LLVMValueRef len = LLVMBuildMul(
		    L->b,
		    LLVMBuildSDiv(L->b, LLVMBuildAdd(L->b, per, ci64(L, g->r_block - 1), ""), rbk,
				  ""),
		    rbk, "");
		L->seg_start = LLVMBuildMul(L->b, L->seg, len, "");
		LLVMValueRef e = LLVMBuildAdd(L->b, L->seg_start, len, "");
		LLVMValueRef lt = LLVMBuildICmp(L->b, LLVMIntSLT, e, L->N, "");
		L->seg_end = LLVMBuildSelect(L->b, lt, e, L->N, "");
	} else {
		L->seg_start = ci64(L, 0);
		L->seg_end = L->N;
	}
	if (L->shifted) {
		body_bounds(L);
	} else {
		L->body_lo = L->seg_start;
		L->body_hi = L->seg_end;
	}
}

static void
annotate(Lower *L, const char *key, int val)
{
	LLVMMetadataRef md[3] = {
	    LLVMValueAsMetadata(L->fn),
	    LLVMMDStringInContext2(L->cx, key, strlen(key)),
	    LLVMValueAsMetadata(ci32(L, val)),
	};
	LLVMAddNamedMetadataOperand(L->mod, "nvvm.annotations",
				    LLVMMetadataAsValue(L->cx, LLVMMDNodeInContext2(L->cx, md, 3)));
}

/* For the emulator: NAME.host(ptr args) calls the kernel with *args[i] as parameter i. */
static void
host_entry(Lower *L)
{
	LLVMTypeRef ptr = LLVMPointerTypeInContext(L->cx, 0);
	char name[160];
	snprintf(name, sizeof name, "%s.host", L->k->name);
	LLVMValueRef h = LLVMAddFunction(
	    L->mod, name, LLVMFunctionType(LLVMVoidTypeInContext(L->cx), &ptr, 1, 0));
	LLVMPositionBuilderAtEnd(L->b, LLVMAppendBasicBlockInContext(L->cx, h, "entry"));
	LLVMValueRef *av = arena_alloc(L->a, sizeof(LLVMValueRef) * L->np);
	for (int i = 0; i < L->np; i++) {
		LLVMValueRef ix = ci64(L, i);
		LLVMValueRef slot = LLVMBuildGEP2(L->b, ptr, LLVMGetParam(h, 0), &ix, 1, "");
		av[i] = LLVMBuildLoad2(L->b, L->pt[i], LLVMBuildLoad2(L->b, ptr, slot, ""), "");
	}
	LLVMBuildCall2(L->b, LLVMGlobalGetValueType(L->fn), L->fn, av, L->np, "");
	LLVMBuildRetVoid(L->b);
}

int
lower_kernel(const Kernel *k, const Compile *c, int host, LLVMContextRef cx, LLVMModuleRef mod,
	     Diag *d)
{
	Lower L = {.k = k, .c = c, .cx = cx, .mod = mod, .d = d, .host = host};
	const Config *g = &c->cfg;
	L.a = arena_new();
	plan_kernel(k, L.a, &L.plan);
	L.b = LLVMCreateBuilderInContext(cx);
	L.f32 = LLVMFloatTypeInContext(cx);
	L.i8 = LLVMInt8TypeInContext(cx);
	L.i32 = LLVMInt32TypeInContext(cx);
	L.i64 = LLVMInt64TypeInContext(cx);
	L.ptr1 = LLVMPointerTypeInContext(cx, host ? 0 : 1);
	L.tpr = config_tpr(g);
	L.wpr = L.tpr > 32 ? L.tpr / 32 : 1;
	L.vec = g->vec;
	L.E = (int)(g->r_block / L.tpr);
	L.nvec = L.E / L.vec;
	L.split = g->split;
	L.shifted = L.vec > 1 && c->N % L.vec != 0;
	L.uni = arena_alloc(L.a, sizeof(LLVMValueRef) * (k->nvals + 1));
	L.el = arena_alloc(L.a, sizeof(LLVMValueRef *) * (k->nvals + 1));
	L.done = arena_alloc(L.a, k->nins + 1);
	L.md_inv = LLVMGetMDKindIDInContext(cx, "invariant.load", 14);
	L.md_empty = LLVMMetadataAsValue(cx, LLVMMDNodeInContext2(cx, NULL, 0));
	prologue(&L);
	if (g->evict && !host)
		make_policies(&L);
	if (L.wpr > 1) {
		int slots = L.plan.nred * g->num_warps;
		LLVMTypeRef at = LLVMArrayType(L.f32, slots);
		L.smem = LLVMAddGlobalInAddressSpace(mod, at, "red_smem", host ? 0 : 3);
		LLVMSetLinkage(L.smem, LLVMInternalLinkage);
		LLVMSetInitializer(L.smem, LLVMGetUndef(at));
		LLVMSetAlignment(L.smem, 16);
	}
	if (g->persistent && L.split == 1)
		lower_persistent(&L);
	else
		lower_looped(&L);
	LLVMBuildBr(L.b, L.end);
	LLVMPositionBuilderAtEnd(L.b, L.end);
	LLVMBuildRetVoid(L.b);
	/* .maxntid alone makes ptxas cap registers for an occupancy it guesses (64 at 256 threads,
	 * spilling held rows); .minnctapersm 1 lets it use what one CTA per SM allows */
	if (host) {
		host_entry(&L);
	} else {
		annotate(&L, "maxntidx", g->num_warps * 32);
		annotate(&L, "minctasm", g->min_ctas > 1 ? g->min_ctas : 1);
	}
	LLVMDisposeBuilder(L.b);
	arena_free(L.a);
	return L.err ? -1 : 0;
}
