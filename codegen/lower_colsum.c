/* Lowering: sums over rows (colsum): column partials held across a persistent grid's rows, then a
 * combine every CTA of the grid waits at and shares. */
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "codegen/lower.h"

/*
 * A colsum needs a persistent grid whose rows start aligned (the validator says so), so a thread
 * sees the same columns in every row it walks: its E elements of each chunk. On a persistent row
 * each thread keeps a float partial per element, carried round the grid loop in phis
 * (colsum_phis, colsum_close), adding the element of every real row (colsum_local). Under smem=1,
 * and always on a looped row, the partials live in shared memory instead: units of u = min(vec,
 * 4) floats, unit-major and thread-minor (csum_unit), so a warp's accesses are consecutive and
 * free of bank conflicts; a looped row's chunk c has the units c * E/u on. Only the thread that
 * owns a unit touches it, so no barrier is needed; the accesses are volatile, so that LLVM cannot
 * carry a partial round the loop in a register again. colsum_finish reads them back into
 * registers, a looped row's a chunk at a time. A looped row whose partials would take more
 * shared memory than any CTA has (ws_colsums) keeps them in its slot of the workspace instead,
 * laid out as the slot is (column c at float c, whole chunks a row): the same loads, adds and
 * stores, through L2, not volatile (a chunk's units are at distinct offsets of one base, so LLVM
 * can issue their loads together), and nothing to write back after the rows.
 *
 * After the loop (colsum_finish) the partials go through the workspace (codegen_launch lays it
 * out; docs/codegen.md draws it): each of a CTA's m_block row groups writes its partial row, a
 * "slot", or, under the pre-sum (colsum_presum: a persistent row, m_block over 1), the groups add
 * theirs in shared memory first and the CTA writes one slot (presum_slot). Then every CTA counts
 * itself in and waits for the whole grid (the launch is cooperative: every CTA resident), and sums
 * its slice of the columns over all slots, in slot order, into the outputs; the last of them to
 * leave zeroes the counters for the next launch. Every order is fixed, so the bits do not depend on
 * which CTA came last. One CTA summing every partial row, as a last-CTA combine would, streams at a
 * lone SM's rate (about 20 GB/s measured on the H100); the slices spread the combine over the grid.
 */

static LLVMValueRef
ws_byte(Lower *L, LLVMValueRef off)
{
	return LLVMBuildGEP2(L->b, L->i8, L->wsc, &off, 1, "");
}

/* The slot of this thread's row group: band * m_block + group (a grid of clusters: the CTAs of a
 * cluster share their band's slot, each writing its segment's columns). */
static LLVMValueRef
csum_slot(Lower *L)
{
	return LLVMBuildAdd(L->b, LLVMBuildMul(L->b, L->band, ci64(L, L->c->cfg.m_block), ""),
			    LLVMBuildZExt(L->b, L->grp, L->i64, ""), "");
}

static LLVMValueRef
tid(Lower *L)
{
	return LLVMBuildZExt(L->b, intr(L, "llvm.nvvm.read.ptx.sreg.tid.x", NULL, NULL, 0), L->i64,
			     "");
}

static LLVMValueRef
nctaid(Lower *L)
{
	return LLVMBuildZExt(L->b, intr(L, "llvm.nvvm.read.ptx.sreg.nctaid.x", NULL, NULL, 0),
			     L->i64, "");
}

/* smem=1: the floats a unit of partials holds */
static int
csum_u(Lower *L)
{
	return L->vec < 4 ? L->vec : 4;
}

/* In shared memory: the units of a region, one a lane per (chunk and) unit of u floats. */
static int64_t
csum_units(Lower *L)
{
	return smem_colsum_cols(&L->c->cfg, L->c->N) / L->tpr / csum_u(L);
}

/* In the workspace (csum_ws): unit q (chunk c's units are c * E/u on) of colsum ci's partials of
 * this thread: the columns of element e0 = (q mod E/u) * u of the chunk, in the row group's slot.
 */
static LLVMValueRef
csum_ws_unit(Lower *L, int ci, LLVMValueRef q)
{
	int u = csum_u(L);
	ColsumLayout lay;
	colsum_layout(&L->c->cfg, L->k->plan->ncolsum, L->c->N, &lay);
	LLVMValueRef per = ci64(L, L->E / u);
	LLVMValueRef e0 = LLVMBuildMul(L->b, LLVMBuildURem(L->b, q, per, ""), ci64(L, u), "");
	LLVMValueRef j = LLVMBuildUDiv(L->b, e0, ci64(L, L->vec), "");
	LLVMValueRef col =
	    LLVMBuildMul(L->b, LLVMBuildUDiv(L->b, q, per, ""), ci64(L, L->c->cfg.r_block), "");
	col = LLVMBuildAdd(L->b, col, L->lofs, "");
	col = LLVMBuildAdd(L->b, col, LLVMBuildMul(L->b, j, ci64(L, (int64_t)L->tpr * L->vec), ""),
			   "");
	col = LLVMBuildAdd(L->b, col, LLVMBuildURem(L->b, e0, ci64(L, L->vec), ""), "");
	LLVMValueRef x = LLVMBuildAdd(L->b, ci64(L, (int64_t)ci * lay.slots * lay.row_bytes),
				      LLVMBuildMul(L->b, col, ci64(L, 4), ""), "");
	return LLVMBuildGEP2(L->b, L->i8, L->csum_smem, &x, 1, "");
}

/* In shared memory: the address of unit q (i64) of colsum instruction i's partials of this thread.
 * Region r = (colsum, row group) holds csum_units units a lane, unit-major and thread-minor; on a
 * looped row, chunk c's units are c * E/u on. */
static LLVMValueRef
csum_unit(Lower *L, int i, LLVMValueRef q)
{
	int ci = 0, u = csum_u(L);
	for (int j = 0; j < i; j++)
		ci += L->k->ins[j].op == OP_COLSUM;
	if (L->csum_ws)
		return csum_ws_unit(L, ci, q);
	LLVMValueRef r = LLVMBuildAdd(L->b, ci64(L, (int64_t)ci * L->c->cfg.m_block),
				      LLVMBuildZExt(L->b, L->grp, L->i64, ""), "");
	LLVMValueRef x =
	    LLVMBuildAdd(L->b, LLVMBuildMul(L->b, r, ci64(L, csum_units(L)), ""), q, "");
	x = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, x, ci64(L, L->tpr), ""), L->lane, "");
	x = LLVMBuildMul(L->b, x, ci64(L, 4 * u), "");
	return LLVMBuildGEP2(L->b, L->i8, L->csum_smem, &x, 1, "");
}

static LLVMTypeRef
csum_unit_type(Lower *L)
{
	return csum_u(L) > 1 ? LLVMVectorType(L->f32, (unsigned)csum_u(L)) : L->f32;
}

static LLVMValueRef
csum_load(Lower *L, int i, LLVMValueRef q)
{
	LLVMValueRef v = LLVMBuildLoad2(L->b, csum_unit_type(L), csum_unit(L, i, q), "");
	LLVMSetAlignment(v, 4 * (unsigned)csum_u(L));
	LLVMSetVolatile(v, !L->csum_ws);
	return v;
}

static void
csum_store(Lower *L, int i, LLVMValueRef q, LLVMValueRef v)
{
	LLVMValueRef s = LLVMBuildStore(L->b, v, csum_unit(L, i, q));
	LLVMSetAlignment(s, 4 * (unsigned)csum_u(L));
	LLVMSetVolatile(s, !L->csum_ws);
}

/* unit q of the chunk being lowered: a looped row's chunk is L->csum_chunk */
static LLVMValueRef
csum_q(Lower *L, int q)
{
	if (!L->csum_chunk)
		return ci64(L, q);
	return LLVMBuildAdd(L->b, LLVMBuildMul(L->b, L->csum_chunk, ci64(L, L->E / csum_u(L)), ""),
			    ci64(L, q), "");
}

void
colsum_begin(Lower *L)
{
	const Kernel *k = L->k;
	L->csum_late = colsum_late(k->plan->ncolsum, k->plan->colsum_alone, &L->c->cfg, L->c->N);
	L->csum_one = colsum_one_slot(k->plan->ncolsum, k->plan->colsum_alone, &L->c->cfg, L->c->N);
	L->csum_cols = colsum_column(k->plan->ncolsum, &L->c->cfg);
	if (L->csum_late || L->csum_cols)
		return; /* no partials while the rows stream */
	if (smem_colsums(k->plan->ncolsum, &L->c->cfg)) {
		L->csum_ws = ws_colsums(k->plan->ncolsum, &L->c->cfg, L->c->N);
		if (L->csum_ws) {
			Launch l;
			codegen_launch(k, L->c, &l);
			ColsumLayout lay;
			colsum_layout(&L->c->cfg, k->plan->ncolsum, L->c->N, &lay);
			L->csum_smem = ws_byte(
			    L,
			    LLVMBuildAdd(
				L->b, ci64(L, codegen_ws_offset(&l, "colsum_partials", L->c->M)),
				LLVMBuildMul(L->b, csum_slot(L), ci64(L, lay.row_bytes), ""), ""));
		} else {
			Smem sm;
			smem_layout(k, L->c->dtype, L->c->N, &L->c->cfg, &sm, NULL, NULL);
			LLVMValueRef off = ci64(L, sm.colsum_off);
			L->csum_smem = LLVMBuildGEP2(L->b, L->i8, L->dyn, &off, 1, "");
		}
		if (!L->c->cfg.persistent) { /* a looped row's chunks: a loop */
			For f = for_open(L, csum_units(L), "colsum.zero");
			for (int i = 0; i < k->nins; i++)
				if (k->ins[i].op == OP_COLSUM)
					csum_store(L, i, f.i, LLVMConstNull(csum_unit_type(L)));
			for_close(L, &f);
			return;
		}
		for (int i = 0; i < k->nins; i++)
			for (int q = 0; k->ins[i].op == OP_COLSUM && q < L->E / csum_u(L); q++)
				csum_store(L, i, ci64(L, q), LLVMConstNull(csum_unit_type(L)));
		return;
	}
	colsum_zero(L);
}

/* smem=1, after the rows: the partials back in registers (L->csum), for colsum_finish. */
static void
csum_read_back(Lower *L)
{
	const Kernel *k = L->k;
	int u = csum_u(L);
	L->csum = arena_alloc(L->a, sizeof(LLVMValueRef *) * (k->nins + 1));
	for (int i = 0; i < k->nins; i++)
		if (k->ins[i].op == OP_COLSUM) {
			L->csum[i] = arena_alloc(L->a, sizeof(LLVMValueRef) * L->E);
			for (int q = 0; q < L->E / u; q++) {
				LLVMValueRef v = csum_load(L, i, csum_q(L, q));
				for (int t = 0; t < u; t++)
					L->csum[i][q * u + t] =
					    u > 1 ? LLVMBuildExtractElement(L->b, v, ci32(L, t), "")
						  : v;
			}
		}
}

LLVMValueRef **
colsum_phis(Lower *L, LLVMBasicBlockRef pre)
{
	const Kernel *k = L->k;
	LLVMValueRef **phi = arena_alloc(L->a, sizeof(LLVMValueRef *) * (k->nins + 1));
	for (int i = 0; L->csum && i < k->nins; i++)
		if (L->csum[i]) {
			phi[i] = arena_alloc(L->a, sizeof(LLVMValueRef) * L->E);
			for (int e = 0; e < L->E; e++) {
				phi[i][e] = LLVMBuildPhi(L->b, L->f32, "");
				LLVMAddIncoming(phi[i][e], &L->csum[i][e], &pre, 1);
			}
			L->csum[i] = arena_alloc(L->a, sizeof(LLVMValueRef) * L->E);
			memcpy(L->csum[i], phi[i], sizeof(LLVMValueRef) * L->E);
		}
	return phi;
}

void
colsum_close(Lower *L, LLVMValueRef **phi, LLVMBasicBlockRef latch)
{
	for (int i = 0; L->csum && i < L->k->nins; i++)
		if (L->csum[i]) {
			for (int e = 0; e < L->E; e++)
				LLVMAddIncoming(phi[i][e], &L->csum[i][e], &latch, 1);
			memcpy(L->csum[i], phi[i], sizeof(LLVMValueRef) * L->E);
		}
}

/* The product a colsum adds (its operand a mul of two floats), else NULL. */
static const Instr *
csum_product(Lower *L, const Instr *in)
{
	const Arg *a = &in->args[0];
	if (a->kind != ARG_VAL || !L->el[a->idx])
		return NULL;
	const Instr *d = &L->k->ins[L->k->vals[a->idx].def];
	if (d->op != OP_MUL)
		return NULL;
	for (int k = 0; k < 2; k++)
		if (LLVMTypeOf(operand(L, &d->args[k], 0)) != L->f32)
			return NULL;
	return d;
}

/* Partial p plus element e of the colsum's operand, where it counts (valid; NULL: always): a
 * product's add is an fma, an FFMA an element where the multiply and the add were an FMUL and an
 * FADD (rounded once, not twice), and a masked element keeps p; any other operand is added as 0
 * where masked (a masked load's element is 0 already, and LLVM drops that select). */
static LLVMValueRef
csum_add(Lower *L, const Instr *in, const Instr *prod, LLVMValueRef p, int e, LLVMValueRef valid)
{
	if (prod) {
		LLVMValueRef s =
		    ffmadd(L, operand(L, &prod->args[0], e), operand(L, &prod->args[1], e), p);
		return valid ? LLVMBuildSelect(L->b, valid, s, p, "") : s;
	}
	LLVMValueRef x = operand(L, &in->args[0], e);
	if (valid)
		x = LLVMBuildSelect(L->b, valid, x, cf(L, 0), "");
	return LLVMBuildFAdd(L->b, p, x, "");
}

/* Adds the chunk's elements of colsum i's operand to the thread's partials. With one row a block
 * (m_block 1) every row walked is real, so the only masked vectors lie past N, whose partials
 * no slot receives: they are added unmasked (a select an element less). */
void
colsum_local(Lower *L, int i, const Chunk *ch)
{
	const Instr *in = &L->k->ins[i];
	L->el = ch->el;
	int u = csum_u(L);
	const Instr *prod = csum_product(L, in);
	int all = L->c->cfg.m_block == 1;
	for (int j = 0; j < ch->nvec; j++)
		for (int e0 = j * ch->vec; e0 < (j + 1) * ch->vec; e0 += u) {
			LLVMValueRef valid = all ? NULL : ch->valid[j];
			if (!L->csum_smem) {
				for (int e = e0; e < e0 + u; e++)
					L->csum[i][e] =
					    csum_add(L, in, prod, L->csum[i][e], e, valid);
				continue;
			}
			/* the unit's add, in shared memory */
			LLVMValueRef q = csum_q(L, e0 / u), was = csum_load(L, i, q);
			LLVMValueRef unit = was;
			for (int e = e0; e < e0 + u; e++) {
				LLVMValueRef p =
				    u > 1 ? LLVMBuildExtractElement(L->b, was, ci32(L, e - e0), "")
					  : was;
				LLVMValueRef s = csum_add(L, in, prod, p, e, valid);
				unit = u > 1 ? LLVMBuildInsertElement(L->b, unit, s,
								      ci32(L, e - e0), "")
					     : s;
			}
			csum_store(L, i, q, unit);
		}
}

/* Columns c .. c+3 of the [N] output param, from the four lanes of v, converted; those below N. */
static void
store_cols(Lower *L, LLVMValueRef v, LLVMValueRef c, int param)
{
	Type t = L->k->params[param].type;
	LLVMTypeRef st = storage_type(L, t);
	for (int e = 0; e < 4; e++) {
		LLVMValueRef col = LLVMBuildAdd(L->b, c, ci64(L, e), "");
		LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(L->cx, L->fn, "st");
		LLVMBasicBlockRef no = LLVMAppendBasicBlockInContext(L->cx, L->fn, "st.done");
		LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, col, L->N, ""), yes, no);
		LLVMPositionBuilderAtEnd(L->b, yes);
		LLVMValueRef x = to_storage(L, t, LLVMBuildExtractElement(L->b, v, ci32(L, e), ""));
		LLVMValueRef p = LLVMBuildGEP2(L->b, st, L->parg[param], &col, 1, "");
		LLVMSetAlignment(LLVMBuildStore(L->b, x, p),
				 type_size(type_resolve(t, L->c->dtype)));
		LLVMBuildBr(L->b, no);
		LLVMPositionBuilderAtEnd(L->b, no);
	}
}

/* Branches to a new block when cond holds, else to done; the builder is left in the new one. */
static void
only_if(Lower *L, LLVMValueRef cond, LLVMBasicBlockRef done, const char *name)
{
	LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(L->cx, L->fn, name);
	LLVMBuildCondBr(L->b, cond, yes, done);
	LLVMPositionBuilderAtEnd(L->b, yes);
}

/* The sums, in row order, of rows first, first + step, ... below n of ns f32 vectors of 4, stream
 * i at byte offset colb[i] of the workspace (rows stride bytes apart), into acc[i]: u rows of
 * every stream a round trip, their loads issued before the adds. Stream i adds nothing where
 * valid[i] is false; a load past n, or not valid, reads row 0 and adds nothing. The adds run in
 * row order whatever u, so u changes no bit. */
static void
sum_rows(Lower *L, int ns, LLVMValueRef *colb, LLVMValueRef *valid, LLVMValueRef first,
	 LLVMValueRef n, int64_t step, int64_t stride, int u, LLVMValueRef *acc)
{
	LLVMTypeRef v4 = LLVMVectorType(L->f32, 4);
	LLVMValueRef zero4 = LLVMConstNull(v4);
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b);
	LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colsum.row");
	LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colsum.row.body");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colsum.row.done");
	LLVMBuildBr(L->b, head);
	LLVMPositionBuilderAtEnd(L->b, head);
	LLVMValueRef r = LLVMBuildPhi(L->b, L->i64, "");
	LLVMAddIncoming(r, &first, &pre, 1);
	LLVMValueRef *a = arena_alloc(L->a, sizeof(LLVMValueRef) * (size_t)ns);
	for (int i = 0; i < ns; i++) {
		a[i] = LLVMBuildPhi(L->b, v4, "");
		LLVMAddIncoming(a[i], &zero4, &pre, 1);
	}
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, r, n, ""), body, done);
	LLVMPositionBuilderAtEnd(L->b, body);
	LLVMValueRef *x = arena_alloc(L->a, sizeof(LLVMValueRef) * (size_t)(ns * u));
	LLVMValueRef *ok = arena_alloc(L->a, sizeof(LLVMValueRef) * (size_t)(ns * u));
	for (int k = 0; k < u; k++) {
		LLVMValueRef rk = LLVMBuildAdd(L->b, r, ci64(L, k * step), "");
		LLVMValueRef in = LLVMBuildICmp(L->b, LLVMIntSLT, rk, n, "");
		for (int i = 0; i < ns; i++) {
			LLVMValueRef o = LLVMBuildAnd(L->b, valid[i], in, "");
			LLVMValueRef ri = LLVMBuildSelect(L->b, o, rk, ci64(L, 0), "");
			LLVMValueRef off = LLVMBuildAdd(
			    L->b, colb[i], LLVMBuildMul(L->b, ri, ci64(L, stride), ""), "");
			x[k * ns + i] = LLVMBuildLoad2(L->b, v4, ws_byte(L, off), "");
			LLVMSetAlignment(x[k * ns + i], 16);
			ok[k * ns + i] = o;
		}
	}
	LLVMValueRef *next = arena_alloc(L->a, sizeof(LLVMValueRef) * (size_t)ns);
	for (int i = 0; i < ns; i++) {
		next[i] = a[i];
		for (int k = 0; k < u; k++)
			next[i] = LLVMBuildFAdd(
			    L->b, next[i],
			    LLVMBuildSelect(L->b, ok[k * ns + i], x[k * ns + i], zero4, ""), "");
	}
	LLVMValueRef r2 = LLVMBuildAdd(L->b, r, ci64(L, step * u), "");
	LLVMBasicBlockRef end = LLVMGetInsertBlock(L->b);
	LLVMBuildBr(L->b, head);
	LLVMAddIncoming(r, &r2, &end, 1);
	for (int i = 0; i < ns; i++)
		LLVMAddIncoming(a[i], &next[i], &end, 1);
	LLVMPositionBuilderAtEnd(L->b, done);
	for (int i = 0; i < ns; i++)
		acc[i] = a[i];
}

/* Vector v (<4 x float>) of every lane summed over the lanes l ^ off of a warp, off = from, 2 *
 * from, ... below 32: a butterfly over the lanes that share v's position. */
static LLVMValueRef
bfly4(Lower *L, LLVMValueRef v, int64_t from)
{
	LLVMTypeRef v4 = LLVMVectorType(L->f32, 4);
	for (int64_t off = from; off < 32; off *= 2) {
		LLVMValueRef w = LLVMGetUndef(v4);
		for (int e = 0; e < 4; e++) {
			LLVMValueRef c = LLVMBuildExtractElement(L->b, v, ci32(L, e), "");
			c = LLVMBuildFAdd(
			    L->b, c, shfl(L, "llvm.nvvm.shfl.sync.bfly.f32", c, ci32(L, (int)off)),
			    "");
			w = LLVMBuildInsertElement(L->b, w, c, ci32(L, e), "");
		}
		v = w;
	}
	return v;
}

/* Byte `off` (i64) of the dynamic shared memory. */
static LLVMValueRef
smem_at(Lower *L, LLVMValueRef off)
{
	return LLVMBuildGEP2(L->b, L->i8, L->dyn, &off, 1, "");
}

/* Turn position j (i64) of a slice that starts at position `first` and holds nj: whether it is one
 * of the slice's and of the npos, its colsum *cs and vector *v (position 0's where it is none). */
static LLVMValueRef
position(Lower *L, LLVMValueRef j, LLVMValueRef first, LLVMValueRef nj, LLVMValueRef npos,
	 LLVMValueRef *cs, LLVMValueRef *v)
{
	int64_t np4 = (L->c->N + 3) / 4;
	LLVMValueRef p = LLVMBuildAdd(L->b, first, j, "");
	LLVMValueRef ok = LLVMBuildAnd(L->b, LLVMBuildICmp(L->b, LLVMIntULT, j, nj, ""),
				       LLVMBuildICmp(L->b, LLVMIntULT, p, npos, ""), "");
	p = LLVMBuildSelect(L->b, ok, p, ci64(L, 0), "");
	*cs = LLVMBuildUDiv(L->b, p, ci64(L, np4), "");
	*v = LLVMBuildURem(L->b, p, ci64(L, np4), "");
	return ok;
}

/* The E entries (vectors of 4 floats) of W positions in the dynamic shared memory, entry e of
 * position pj at byte 16 * (e * W + pj), thread e * W + pj's (rl = e), written and past a
 * barrier: added pairwise in a fixed tree, entry e taking e + h for h = half the entries, ... 1,
 * a barrier a level, so entry 0 holds the sum. */
static void
tree_add(Lower *L, LLVMValueRef rl, int64_t E, int64_t W)
{
	LLVMTypeRef v4 = LLVMVectorType(L->f32, 4);
	LLVMValueRef mine_at = LLVMBuildMul(L->b, tid(L), ci64(L, 16), "");
	int64_t h = 1;
	while (2 * h < E)
		h *= 2;
	for (; h >= 1; h /= 2) {
		LLVMBasicBlockRef added = LLVMAppendBasicBlockInContext(L->cx, L->fn, "tree");
		only_if(L, LLVMBuildICmp(L->b, LLVMIntULT, rl, ci64(L, E - h < h ? E - h : h), ""),
			added, "tree.add");
		LLVMValueRef o = LLVMBuildAdd(L->b, mine_at, ci64(L, h * W * 16), "");
		LLVMValueRef x = LLVMBuildLoad2(L->b, v4, smem_at(L, mine_at), "");
		LLVMValueRef y = LLVMBuildLoad2(L->b, v4, smem_at(L, o), "");
		LLVMSetAlignment(x, 16);
		LLVMSetAlignment(y, 16);
		LLVMSetAlignment(
		    LLVMBuildStore(L->b, LLVMBuildFAdd(L->b, x, y, ""), smem_at(L, mine_at)), 16);
		LLVMBuildBr(L->b, added);
		LLVMPositionBuilderAtEnd(L->b, added);
		intr(L, "llvm.nvvm.barrier0", NULL, NULL, 0);
	}
}

/*
 * Slice `slice` of `nslices` of the positions, every (stored colsum, vector of 4 columns) pair,
 * colsum after colsum: nj = cdiv(ns * N/4, nslices) consecutive positions, each the sum in a fixed
 * order of R f32 rows from src[colsum] (byte offsets in the workspace, rows stride bytes apart),
 * stored to the [N] output param[colsum]. W consecutive threads take W consecutive positions
 * (colsum_slices), so a warp reads rows of W*16 contiguous bytes (512 from W = 32 on); the CTA's
 * nt/W row lanes take rows l, l + nt/W, ..., up to COLSUM_TURNS turns of W positions a round
 * trip (colsum_unroll). Under 32 positions the row lanes of a warp meet in a butterfly; then the
 * row lanes' (or warps') E sums of a position go through shared memory (the dynamic area, free
 * once every slot is written) and are added pairwise in a fixed tree, a barrier a level (a thread
 * adding them one after another held them all at once: 376 bytes of spills at 64 registers); the
 * first W threads store.
 */
static void
slice_sum(Lower *L, int ns, const int64_t *src, const int *param, LLVMValueRef R, int64_t stride,
	  LLVMValueRef slice, LLVMValueRef nslices, const ColsumSlices *sl)
{
	LLVMTypeRef v4 = LLVMVectorType(L->f32, 4);
	int64_t np4 = (L->c->N + 3) / 4, nt = (int64_t)L->c->cfg.num_warps * 32;
	int64_t W = sl->lanes, RL = nt / W, E = W < 32 ? nt / 32 : RL;
	int u, per;
	colsum_unroll(cdiv(sl->rows, RL), cdiv(sl->vectors, W), (int)nt, L->c->cfg.min_ctas, &u,
		      &per);
	LLVMValueRef npos = ci64(L, ns * np4);
	LLVMValueRef nj = LLVMBuildUDiv(
	    L->b, LLVMBuildAdd(L->b, npos, LLVMBuildSub(L->b, nslices, ci64(L, 1), ""), ""),
	    nslices, "");
	LLVMValueRef pj = LLVMBuildURem(L->b, tid(L), ci64(L, W), "");
	LLVMValueRef rl = LLVMBuildUDiv(L->b, tid(L), ci64(L, W), "");
	LLVMValueRef first = LLVMBuildMul(L->b, slice, nj, "");
	/* where a thread leaves its sum: its warp's (W < 32, lanes below W), else its own */
	LLVMValueRef lead = LLVMConstInt(LLVMInt1TypeInContext(L->cx), 1, 0), at = tid(L);
	if (W < 32) {
		LLVMValueRef lane = LLVMBuildURem(L->b, tid(L), ci64(L, 32), "");
		lead = LLVMBuildICmp(L->b, LLVMIntULT, lane, ci64(L, W), "");
		at = LLVMBuildAdd(L->b,
				  LLVMBuildMul(L->b, LLVMBuildUDiv(L->b, tid(L), ci64(L, 32), ""),
					       ci64(L, W), ""),
				  pj, "");
	}
	at = LLVMBuildMul(L->b, at, ci64(L, 16), "");

	/* turns: k = 0, W * per, ... while k < nj, the same trips for every thread (barriers) */
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b);
	LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colsum.vec");
	LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colsum.vec.body");
	LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colsum.vec.done");
	LLVMBuildBr(L->b, head);
	LLVMPositionBuilderAtEnd(L->b, head);
	LLVMValueRef k = LLVMBuildPhi(L->b, L->i64, "");
	LLVMValueRef k0 = ci64(L, 0);
	LLVMAddIncoming(k, &k0, &pre, 1);
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntULT, k, nj, ""), body, out);
	LLVMPositionBuilderAtEnd(L->b, body);
	LLVMValueRef colb[COLSUM_TURNS], ok[COLSUM_TURNS], acc[COLSUM_TURNS];
	for (int i = 0; i < per; i++) {
		LLVMValueRef cs, v;
		ok[i] = position(
		    L, LLVMBuildAdd(L->b, k, LLVMBuildAdd(L->b, ci64(L, i * W), pj, ""), ""), first,
		    nj, npos, &cs, &v);
		LLVMValueRef base = ci64(L, src[0]);
		for (int c = 1; c < ns; c++)
			base = LLVMBuildSelect(L->b,
					       LLVMBuildICmp(L->b, LLVMIntEQ, cs, ci64(L, c), ""),
					       ci64(L, src[c]), base, "");
		colb[i] = LLVMBuildAdd(L->b, base, LLVMBuildMul(L->b, v, ci64(L, 16), ""), "");
	}
	sum_rows(L, per, colb, ok, rl, R, RL, stride, u, acc);
	for (int i = 0; i < per; i++) {
		LLVMValueRef sum = W < 32 ? bfly4(L, acc[i], W) : acc[i];
		/* the turn's position again, not held across the round trip: a register less a turn
		 */
		LLVMValueRef cs, v;
		LLVMValueRef mine = position(
		    L, LLVMBuildAdd(L->b, k, LLVMBuildAdd(L->b, ci64(L, i * W), pj, ""), ""), first,
		    nj, npos, &cs, &v);
		if (E > 1) {
			/* the E sums of a position, entry e at e*W + pj, added pairwise in a fixed
			 * tree by thread e*W + pj (its row lane is e): entry e takes e + h, h =
			 * half the entries, ... 1 */
			LLVMBasicBlockRef wrote =
			    LLVMAppendBasicBlockInContext(L->cx, L->fn, "colsum.red");
			only_if(L, lead, wrote, "colsum.red.st");
			LLVMSetAlignment(LLVMBuildStore(L->b, sum, smem_at(L, at)), 16);
			LLVMBuildBr(L->b, wrote);
			LLVMPositionBuilderAtEnd(L->b, wrote);
			intr(L, "llvm.nvvm.barrier0", NULL, NULL, 0);
			tree_add(L, rl, E, W);
			LLVMValueRef x = LLVMBuildLoad2(
			    L->b, v4, smem_at(L, LLVMBuildMul(L->b, pj, ci64(L, 16), "")), "");
			LLVMSetAlignment(x, 16);
			sum = x;
		}
		/* the first W threads store (where E is 1: the lead threads, the same W) */
		LLVMBasicBlockRef stored = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colsum.st");
		only_if(L,
			LLVMBuildAnd(L->b, mine,
				     LLVMBuildICmp(L->b, LLVMIntULT, tid(L), ci64(L, W), ""), ""),
			stored, "colsum.st.w");
		LLVMValueRef col = LLVMBuildMul(L->b, v, ci64(L, 4), "");
		for (int c = 0; c < ns; c++) {
			LLVMBasicBlockRef next =
			    LLVMAppendBasicBlockInContext(L->cx, L->fn, "colsum.vec.next");
			only_if(L, LLVMBuildICmp(L->b, LLVMIntEQ, cs, ci64(L, c), ""), next,
				"colsum.vec.store");
			store_cols(L, sum, col, param[c]);
			LLVMBuildBr(L->b, next);
			LLVMPositionBuilderAtEnd(L->b, next);
		}
		LLVMBuildBr(L->b, stored);
		LLVMPositionBuilderAtEnd(L->b, stored);
		if (E > 1) /* before the next turn writes the entries again */
			intr(L, "llvm.nvvm.barrier0", NULL, NULL, 0);
	}
	LLVMValueRef k2 = LLVMBuildAdd(L->b, k, ci64(L, W * per), "");
	LLVMBasicBlockRef latch = LLVMGetInsertBlock(L->b);
	LLVMBuildBr(L->b, head);
	LLVMAddIncoming(k, &k2, &latch, 1);
	LLVMPositionBuilderAtEnd(L->b, out);
}

/* A CTA counts itself out once its wait is over: thread 0's atomic, with no fence (it publishes
 * nothing), issued before the CTA's slice so that its round trip overlaps it; the result is the
 * CTAs out before it, for thread 0 (leave_zero), 0xffffffff for every other thread. cnt: the u32
 * index of the two counters (COLSUM_DONE_WORD, COLSUM_LEAVE_WORD). */
static LLVMValueRef
leave_count(Lower *L, LLVMValueRef cnt)
{
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b);
	LLVMBasicBlockRef t0 = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colsum.out");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colsum.outed");
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, tid(L), ci64(L, 0), ""), t0, join);
	LLVMPositionBuilderAtEnd(L->b, t0);
	LLVMValueRef ix = LLVMBuildAdd(L->b, cnt, ci64(L, COLSUM_LEAVE_WORD), "");
	LLVMValueRef r = LLVMBuildAtomicRMW(L->b, LLVMAtomicRMWBinOpAdd,
					    LLVMBuildGEP2(L->b, L->i32, L->wsc, &ix, 1, ""),
					    ci32(L, 1), LLVMAtomicOrderingMonotonic, 0);
	LLVMBuildBr(L->b, join);
	LLVMPositionBuilderAtEnd(L->b, join);
	LLVMValueRef out = LLVMBuildPhi(L->b, L->i32, "");
	LLVMValueRef in[2] = {ci32(L, -1), r};
	LLVMBasicBlockRef from[2] = {pre, t0};
	LLVMAddIncoming(out, in, from, 2);
	return out;
}

/* Thread 0 of the last of the ng CTAs to count out zeroes both counters: every CTA has left its
 * wait. */
static void
leave_zero(Lower *L, LLVMValueRef cnt, LLVMValueRef out, LLVMValueRef ng)
{
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colsum.left");
	only_if(L,
		LLVMBuildICmp(L->b, LLVMIntEQ, LLVMBuildZExt(L->b, out, L->i64, ""),
			      LLVMBuildSub(L->b, ng, ci64(L, 1), ""), ""),
		done, "colsum.zero");
	for (int w = COLSUM_DONE_WORD; w <= COLSUM_LEAVE_WORD; w++) {
		LLVMValueRef dw = LLVMBuildAdd(L->b, cnt, ci64(L, w), "");
		LLVMSetAlignment(LLVMBuildStore(L->b, ci32(L, 0),
						LLVMBuildGEP2(L->b, L->i32, L->wsc, &dw, 1, "")),
				 4);
	}
	LLVMBuildBr(L->b, done);
	LLVMPositionBuilderAtEnd(L->b, done);
}

/* acc (NULL: none) plus the n values of type t (align bytes aligned) at byte `at` of the dynamic
 * area and the rows stride bytes on, in that order, their loads issued before the adds. */
static LLVMValueRef
presum_add(Lower *L, LLVMValueRef acc, LLVMValueRef at, int n, int64_t stride, LLVMTypeRef t,
	   int align)
{
	LLVMValueRef x[PRESUM_LOADS];
	for (int r = 0; r < n; r++) {
		x[r] = LLVMBuildLoad2(
		    L->b, t, smem_at(L, LLVMBuildAdd(L->b, at, ci64(L, r * stride), "")), "");
		LLVMSetAlignment(x[r], (unsigned)align);
	}
	for (int r = 0; r < n; r++)
		acc = acc ? LLVMBuildFAdd(L->b, acc, x[r], "") : x[r];
	return acc;
}

/* Marks the loop whose latch branch is br not to be unrolled (llvm.loop.unroll.disable). */
static void
no_unroll(Lower *L, LLVMValueRef br)
{
	LLVMMetadataRef tmp = LLVMTemporaryMDNode(L->cx, NULL, 0);
	LLVMMetadataRef dis = LLVMMDStringInContext2(L->cx, "llvm.loop.unroll.disable", 24);
	LLVMMetadataRef ops[2] = {tmp, LLVMMDNodeInContext2(L->cx, &dis, 1)};
	LLVMMetadataRef loop = LLVMMDNodeInContext2(L->cx, ops, 2);
	LLVMMetadataReplaceAllUsesWith(tmp, loop);
	LLVMSetMetadata(br, LLVMGetMDKindIDInContext(L->cx, "llvm.loop", 9),
			LLVMMetadataAsValue(L->cx, loop));
}

/* The sum over the m_block row groups, in group order, of the value of type t at byte `src` of the
 * dynamic area in group 0's partials, group r's stride * r bytes on: PRESUM_LOADS groups at a
 * time in a loop LLVM does not unroll, so that whatever m_block (up to 32) at most PRESUM_LOADS
 * values are in flight. */
static LLVMValueRef
presum_groups(Lower *L, LLVMValueRef src, int64_t stride, LLVMTypeRef t, int align)
{
	int m = L->c->cfg.m_block, n = m % PRESUM_LOADS ? 1 : PRESUM_LOADS;
	LLVMValueRef sum = presum_add(L, NULL, src, n, stride, t, align);
	if (m == n)
		return sum;
	/* groups r = n, 2n, ... below m */
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b);
	LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(L->cx, L->fn, "presum.grp");
	LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(L->cx, L->fn, "presum.grp");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(L->cx, L->fn, "presum.grp");
	LLVMBuildBr(L->b, head);
	LLVMPositionBuilderAtEnd(L->b, head);
	LLVMValueRef r = LLVMBuildPhi(L->b, L->i64, ""), acc = LLVMBuildPhi(L->b, t, "");
	LLVMValueRef r0 = ci64(L, n);
	LLVMAddIncoming(r, &r0, &pre, 1);
	LLVMAddIncoming(acc, &sum, &pre, 1);
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntULT, r, ci64(L, m), ""), body, done);
	LLVMPositionBuilderAtEnd(L->b, body);
	LLVMValueRef at = LLVMBuildAdd(L->b, src, LLVMBuildMul(L->b, r, ci64(L, stride), ""), "");
	LLVMValueRef next = presum_add(L, acc, at, n, stride, t, align);
	LLVMValueRef r2 = LLVMBuildAdd(L->b, r, ci64(L, n), "");
	LLVMBasicBlockRef latch = LLVMGetInsertBlock(L->b);
	no_unroll(L, LLVMBuildBr(L->b, head));
	LLVMAddIncoming(r, &r2, &latch, 1);
	LLVMAddIncoming(acc, &next, &latch, 1);
	LLVMPositionBuilderAtEnd(L->b, done);
	return acc;
}

/* The byte of colsum cs's column col (i64 each) in the CTA's slot. */
static LLVMValueRef
presum_dst(Lower *L, const ColsumLayout *lay, int64_t part, LLVMValueRef cs, LLVMValueRef col)
{
	return LLVMBuildAdd(
	    L->b,
	    LLVMBuildAdd(L->b, ci64(L, part),
			 LLVMBuildMul(L->b, cs, ci64(L, lay->slots * lay->row_bytes), ""), ""),
	    LLVMBuildAdd(L->b, LLVMBuildMul(L->b, L->band, ci64(L, lay->row_bytes), ""),
			 LLVMBuildMul(L->b, col, ci64(L, 4), ""), ""),
	    "");
}

/*
 * The pre-sum (colsum_presum), after a barrier: the CTA's threads take positions in turns, each
 * summing one over the row groups (presum_groups) and storing it to the CTA's slot at part.
 * - Partials from registers: the groups wrote their partial rows to the dynamic area, colsum ci's
 *   of group r at row ci * m_block + r; a position is a (colsum, vector of 4 columns).
 * - Partials in shared memory (smem=1): they stay where the rows left them, in units
 *   (csum_unit: region ci * m_block + r of r_block floats, unit q of lane l at float
 *   (q * tpr + l) * u); a position is a (colsum, unit position q * tpr + l), whose u floats are
 *   the columns l * vec + (e / vec) * tpr * vec + e % vec of e = q * u on, stored where below N.
 *   Nothing is read back into registers or written again first.
 */
static void
presum_slot(Lower *L, const ColsumLayout *lay, int64_t part)
{
	const Config *g = &L->c->cfg;
	int units = L->csum_smem != NULL, u = units ? csum_u(L) : 4;
	LLVMTypeRef t = units ? csum_unit_type(L) : LLVMVectorType(L->f32, 4);
	int64_t per = units ? g->r_block / u : lay->cols4;	  /* positions a colsum */
	int64_t stride = units ? g->r_block * 4 : lay->row_bytes; /* bytes a group */
	int64_t np = (int64_t)L->k->plan->ncolsum * per, nt = (int64_t)g->num_warps * 32;
	intr(L, "llvm.nvvm.barrier0", NULL, NULL, 0);
	For f = for_open(L, cdiv(np, nt), "colsum.presum");
	LLVMValueRef p = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, f.i, ci64(L, nt), ""), tid(L), "");
	LLVMValueRef cs = LLVMBuildUDiv(L->b, p, ci64(L, per), "");
	LLVMValueRef x = LLVMBuildURem(L->b, p, ci64(L, per), "");
	LLVMValueRef col = LLVMBuildMul(L->b, x, ci64(L, 4), ""), ok = NULL;
	if (units) {
		LLVMValueRef e0 =
		    LLVMBuildMul(L->b, LLVMBuildUDiv(L->b, x, ci64(L, L->tpr), ""), ci64(L, u), "");
		LLVMValueRef lane = LLVMBuildURem(L->b, x, ci64(L, L->tpr), "");
		col = LLVMBuildAdd(
		    L->b, LLVMBuildMul(L->b, lane, ci64(L, L->vec), ""),
		    LLVMBuildAdd(L->b,
				 LLVMBuildMul(L->b, LLVMBuildUDiv(L->b, e0, ci64(L, L->vec), ""),
					      ci64(L, (int64_t)L->tpr * L->vec), ""),
				 LLVMBuildURem(L->b, e0, ci64(L, L->vec), ""), ""),
		    "");
		ok = LLVMBuildICmp(L->b, LLVMIntULT, col, ci64(L, L->c->N), "");
	}
	LLVMValueRef in = LLVMBuildICmp(L->b, LLVMIntULT, p, ci64(L, np), "");
	LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colsum.presum.next");
	only_if(L, ok ? LLVMBuildAnd(L->b, in, ok, "") : in, next, "colsum.presum.pos");
	LLVMValueRef src =
	    LLVMBuildAdd(L->b, LLVMBuildMul(L->b, cs, ci64(L, g->m_block * stride), ""),
			 LLVMBuildMul(L->b, x, ci64(L, u * 4), ""), "");
	if (units) { /* where csum_unit's regions start */
		Smem sm;
		smem_layout(L->k, L->c->dtype, L->c->N, g, &sm, NULL, NULL);
		src = LLVMBuildAdd(L->b, src, ci64(L, sm.colsum_off), "");
	}
	LLVMValueRef sum = presum_groups(L, src, stride, t, u * 4);
	LLVMSetAlignment(LLVMBuildStore(L->b, sum, ws_byte(L, presum_dst(L, lay, part, cs, col))),
			 (unsigned)u * 4);
	LLVMBuildBr(L->b, next);
	LLVMPositionBuilderAtEnd(L->b, next);
	for_close(L, &f);
}

/* The one slot (colsum_one_slot): the thread's partials (L->csum) of the columns from `first` (i64:
 * its first column of a chunk) are the sums; each colsum's are stored to its output, converted,
 * a vector at a time, those before the segment's end (N, or where the next CTA's columns start). */
static void
store_sums(Lower *L, LLVMValueRef first)
{
	const Kernel *k = L->k;
	Chunk ch = {.vec = L->vec, .nvec = L->nvec, .E = L->E, .col = first};
	ch.valid = arena_alloc(L->a, sizeof(LLVMValueRef) * L->nvec);
	ch.el = arena_alloc(L->a, sizeof(LLVMValueRef *) * (k->nvals + 1));
	for (int j = 0; j < L->nvec; j++) {
		LLVMValueRef c =
		    LLVMBuildAdd(L->b, first, ci64(L, (long long)j * L->tpr * L->vec), "");
		ch.valid[j] = LLVMBuildICmp(L->b, LLVMIntSLT, c, L->seg_end, "");
	}
	LLVMValueRef **el = L->el;
	for (int i = 0; i < k->nins; i++) {
		if (!instr_is_colsum_store(k, &k->ins[i]))
			continue;
		int v = argval(&k->ins[i], 0);
		ch.el[v] = L->csum[k->vals[v].def];
		store_tile(L, &k->ins[i], &ch);
	}
	L->el = el;
}

/* The thread's partials in registers (L->csum) of the columns from `first` (i64: its first
 * column of a chunk), colsum ci's of the row group at byte base + ci * stride + slot * row_bytes:
 * of the workspace, or under the pre-sum (presum) of the dynamic area. Where bounded, only the
 * vectors below the segment's end (N, or under a grid of clusters where the next CTA's columns
 * start). */
static void
store_partials(Lower *L, const ColsumLayout *lay, int64_t base, int64_t stride, LLVMValueRef slot,
	       LLVMValueRef first, int presum, int bounded)
{
	const Kernel *k = L->k;
	LLVMTypeRef vt = L->vec > 1 ? LLVMVectorType(L->f32, L->vec) : L->f32;
	int align = L->vec * 4 < 16 ? L->vec * 4 : 16;
	for (int i = 0, ci = 0; i < k->nins; i++) {
		if (!L->csum[i])
			continue;
		LLVMValueRef row =
		    LLVMBuildAdd(L->b, ci64(L, base + (int64_t)ci++ * stride),
				 LLVMBuildMul(L->b, slot, ci64(L, lay->row_bytes), ""), "");
		for (int j = 0; j < L->nvec; j++) {
			LLVMValueRef col =
			    LLVMBuildAdd(L->b, first, ci64(L, (long long)j * L->tpr * L->vec), "");
			LLVMBasicBlockRef next = NULL;
			if (bounded) {
				next =
				    LLVMAppendBasicBlockInContext(L->cx, L->fn, "colsum.part.next");
				only_if(L, LLVMBuildICmp(L->b, LLVMIntSLT, col, L->seg_end, ""),
					next, "colsum.part");
			}
			LLVMValueRef v = L->csum[i][j * L->vec];
			if (L->vec > 1) {
				v = LLVMGetUndef(vt);
				for (int t = 0; t < L->vec; t++)
					v = LLVMBuildInsertElement(
					    L->b, v, L->csum[i][j * L->vec + t], ci32(L, t), "");
			}
			LLVMValueRef off =
			    LLVMBuildAdd(L->b, row, LLVMBuildMul(L->b, col, ci64(L, 4), ""), "");
			LLVMSetAlignment(
			    LLVMBuildStore(L->b, v, presum ? smem_at(L, off) : ws_byte(L, off)),
			    align);
			if (bounded) {
				LLVMBuildBr(L->b, next);
				LLVMPositionBuilderAtEnd(L->b, next);
			}
		}
	}
}

/* Each row group's partials into its slot, at part; a looped row's a chunk at a time. Under the
 * pre-sum, partials in registers go into the dynamic area instead (which holds nothing else once
 * the rows are done), and presum_slot adds them, or those in shared memory, into the CTA's slot.
 * The one slot (L->csum_one; part unused) stores them to the outputs instead. */
static void
write_slots(Lower *L, const ColsumLayout *lay, int64_t part)
{
	const Config *g = &L->c->cfg;
	int presum = lay->per_cta < g->m_block;
	For chunks = {0};
	LLVMValueRef first = LLVMBuildAdd(L->b, L->seg_start, L->lofs, "");
	if (!g->persistent) {
		chunks = for_open(L, smem_colsum_cols(g, L->c->N) / g->r_block, "colsum.chunk");
		L->csum_chunk = chunks.i;
		first = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, chunks.i, ci64(L, g->r_block), ""),
				     first, "");
	}
	if (presum && L->csum_smem) { /* the partials stay in their units */
		presum_slot(L, lay, part);
		return;
	}
	if (L->csum_smem)
		csum_read_back(L);
	if (L->csum_one) {
		store_sums(L, first);
	} else {
		/* the group's partial row of colsum ci: at base + ci * stride + slot * row_bytes,
		 * in the workspace's slots or, under the pre-sum, the dynamic area's rows */
		store_partials(L, lay, presum ? 0 : part,
			       (presum ? g->m_block : lay->slots) * lay->row_bytes,
			       presum ? LLVMBuildZExt(L->b, L->grp, L->i64, "") : csum_slot(L),
			       first, presum, 1);
	}
	if (!g->persistent) {
		for_close(L, &chunks);
		L->csum_chunk = NULL;
	}
	if (presum)
		presum_slot(L, lay, part);
}

void
colsum_zero(Lower *L)
{
	const Kernel *k = L->k;
	L->csum = arena_alloc(L->a, sizeof(LLVMValueRef *) * (k->nins + 1));
	for (int i = 0; i < k->nins; i++)
		if (k->ins[i].op == OP_COLSUM) {
			L->csum[i] = arena_alloc(L->a, sizeof(LLVMValueRef) * L->E);
			for (int e = 0; e < L->E; e++)
				L->csum[i][e] = cf(L, 0);
		}
}

/* The slot covers whole chunks (ws_colsums' layout), so no store needs a bound; the combine reads
 * no column past N from it. */
void
colsum_own_store(Lower *L, LLVMValueRef at)
{
	/* a grid of bands: the segment's columns of the band's slot, up to the segment's end */
	int band = config_band_grid(&L->c->cfg);
	LLVMValueRef first = LLVMBuildAdd(L->b, at, L->lofs, "");
	if (band)
		first = LLVMBuildAdd(L->b, L->seg_start, first, "");
	if (L->csum_one) {
		store_sums(L, first);
		return;
	}
	Launch l;
	codegen_launch(L->k, L->c, &l);
	ColsumLayout lay;
	colsum_layout(&L->c->cfg, L->k->plan->ncolsum, L->c->N, &lay);
	store_partials(L, &lay, codegen_ws_offset(&l, "colsum_partials", L->c->M),
		       lay.slots * lay.row_bytes, csum_slot(L), first, 0, band);
}

void
colsum_finish(Lower *L)
{
	const Kernel *k = L->k;
	const Config *g = &L->c->cfg;
	ColsumLayout lay;
	colsum_layout(g, k->plan->ncolsum, L->c->N, &lay);
	if (L->csum_one) {
		if (!L->csum_late) /* else stored by the own pass */
			write_slots(L, &lay, -1);
		return;
	}
	Launch l;
	codegen_launch(k, L->c, &l);
	ColsumSlices sl;
	colsum_slices(&lay, g, k->plan->ncolsum, l.grid_x, &sl);
	int64_t cnt = codegen_ws_offset(&l, "colsum_counters", L->c->M);
	int64_t part = codegen_ws_offset(&l, "colsum_partials", L->c->M);
	int nc = k->plan->ncolsum;
	if (!L->csum_ws && !L->csum_late) /* there already */
		write_slots(L, &lay, part);

	/* every CTA waits for the others, counts itself out, then sums its slice of the columns of
	 * every colsum over all slots */
	LLVMValueRef G = nctaid(L);
	regions_tail_wait(L, 0);
	ws_arrive_wait(L, L->wsc, ci64(L, cnt / 4 + COLSUM_DONE_WORD), G, "colsum");
	regions_tail_wait(L, 1);
	LLVMValueRef out = leave_count(L, ci64(L, cnt / 4));
	int64_t *src = arena_alloc(L->a, sizeof(int64_t) * (size_t)nc);
	int *param = arena_alloc(L->a, sizeof(int) * (size_t)nc);
	int ns = 0;
	for (int i = 0; i < k->nins; i++) {
		if (!instr_is_colsum_store(k, &k->ins[i]))
			continue;
		int ci = 0;
		for (int j = 0; j < k->vals[argval(&k->ins[i], 0)].def; j++)
			ci += k->ins[j].op == OP_COLSUM;
		src[ns] = part + (int64_t)ci * lay.slots * lay.row_bytes;
		param[ns++] = k->ins[i].param;
	}
	/* the slots: a band's (a cluster's under a grid of clusters), every CTA a slice */
	LLVMValueRef R = LLVMBuildMul(L->b, LLVMBuildUDiv(L->b, G, ci64(L, L->nseg), ""),
				      ci64(L, lay.per_cta), "");
	slice_sum(L, ns, src, param, R, lay.row_bytes, L->cta, G, &sl);
	leave_zero(L, ci64(L, cnt / 4), out, G);
}

/* Before a column pass that reads row values (colpass_rows): every CTA counts in and waits for
 * the grid (every row's values written and fenced), then counts out, the last zeroing the
 * counters for the next launch. */
void
rowvals_wait(Lower *L)
{
	const Plan *p = L->plan;
	if (!colpass_rows(p->ncolsum, p->colsum_alone, &L->c->cfg))
		return;
	Launch l;
	codegen_launch(L->k, L->c, &l);
	LLVMValueRef cnt = ci64(L, codegen_ws_offset(&l, "colsum_counters", L->c->M) / 4);
	LLVMValueRef G = nctaid(L);
	regions_tail_wait(L, 0);
	ws_arrive_wait(L, L->wsc, LLVMBuildAdd(L->b, cnt, ci64(L, COLSUM_DONE_WORD), ""), G,
		       "rowvals");
	regions_tail_wait(L, 1);
	leave_zero(L, cnt, leave_count(L, cnt), G);
}

/* The column pass (lower_sched.c, colsum_column_pass): element e of colsum instruction ins's
 * operand added to acc[e] for e < 4, where valid[e] (a product as an fma, as colsum_local). */
void
colpass_add(Lower *L, int ins, LLVMValueRef *acc, LLVMValueRef *valid)
{
	const Instr *in = &L->k->ins[ins];
	const Instr *prod = csum_product(L, in);
	for (int e = 0; e < 4; e++)
		acc[e] = csum_add(L, in, prod, acc[e], e, valid[e]);
}

/* The column pass's sums of a turn's position, acc[0..3] of each of the CTA's ln->row_lanes row
 * lanes (thread rl * lanes + pj): entry e at byte 16 * (e * lanes + pj) of the dynamic shared
 * memory, added pairwise in a fixed tree by thread e * lanes + pj (entry e takes e + h, h = half
 * the entries, ... 1), a barrier a level; then the first lanes threads store columns col to col
 * + 3 (those below N) of output param where ok, and a barrier frees the entries again. */
void
colpass_store(Lower *L, LLVMValueRef *acc, const ColpassLanes *ln, LLVMValueRef pj, LLVMValueRef rl,
	      LLVMValueRef ok, LLVMValueRef col, int param)
{
	LLVMTypeRef v4 = LLVMVectorType(L->f32, 4);
	int64_t W = ln->lanes, RL = ln->row_lanes;
	LLVMValueRef sum = LLVMGetUndef(v4);
	for (int e = 0; e < 4; e++)
		sum = LLVMBuildInsertElement(L->b, sum, acc[e], ci32(L, e), "");
	if (RL > 1) {
		LLVMValueRef at = LLVMBuildMul(L->b, tid(L), ci64(L, 16), "");
		LLVMSetAlignment(LLVMBuildStore(L->b, sum, smem_at(L, at)), 16);
		intr(L, "llvm.nvvm.barrier0", NULL, NULL, 0);
		tree_add(L, rl, RL, W);
		sum = LLVMBuildLoad2(L->b, v4, smem_at(L, LLVMBuildMul(L->b, pj, ci64(L, 16), "")),
				     "");
		LLVMSetAlignment(sum, 16);
	}
	LLVMBasicBlockRef stored = LLVMAppendBasicBlockInContext(L->cx, L->fn, "colpass.st");
	only_if(L,
		LLVMBuildAnd(L->b, ok, LLVMBuildICmp(L->b, LLVMIntULT, tid(L), ci64(L, W), ""), ""),
		stored, "colpass.st.w");
	store_cols(L, sum, col, param);
	LLVMBuildBr(L->b, stored);
	LLVMPositionBuilderAtEnd(L->b, stored);
	if (RL > 1) /* before the next colsum or turn writes the entries again */
		intr(L, "llvm.nvvm.barrier0", NULL, NULL, 0);
}
