/* Lowering: chunks of a row, their loads and stores, and the tile and uniform instructions. */
#include <string.h>

#include "codegen/lower.h"

/* Operand i of an instruction: element e when it varies along N, else the row's value. */
LLVMValueRef
operand(Lower *L, const Arg *a, int e)
{
	switch (a->kind) {
	case ARG_VAL:
		if (L->el[a->idx])
			return L->el[a->idx][e];
		return L->uni[a->idx];
	case ARG_PARAM:
		return L->parg[a->idx];
	case ARG_IMM:
		return cf(L, a->imm);
	default:
		return L->Nf;
	}
}

int
is_tile(Lower *L, int v)
{
	return shape_has_n(L->k->vals[v].shape);
}

static LLVMValueRef
load_inv(Lower *L, LLVMTypeRef t, LLVMValueRef p, int align)
{
	LLVMValueRef v = LLVMBuildLoad2(L->b, t, p, "");
	LLVMSetAlignment(v, align);
	LLVMSetMetadata(v, L->md_inv, L->md_empty);
	return v;
}

/* One thread's part of a chunk: vector j covers columns base + (j*tpr + lane)*vec + [0, vec),
 * masked past the body (body_hi) and on rows past M; a whole chunk (whole: it lies in the body) on
 * rows past M alone. */
static Chunk
chunk_make(Lower *L, LLVMValueRef base, int whole)
{
	Chunk ch = {.vec = L->vec, .nvec = L->nvec, .E = L->E, .whole = whole};
	ch.valid = arena_alloc(L->a, sizeof(LLVMValueRef) * L->nvec);
	ch.el = arena_alloc(L->a, sizeof(LLVMValueRef *) * (L->k->nvals + 1));
	ch.col = LLVMBuildAdd(L->b, base, L->lofs, "");
	for (int j = 0; j < L->nvec; j++) {
		if (whole) {
			ch.valid[j] = L->rowok;
			continue;
		}
		LLVMValueRef c =
		    LLVMBuildAdd(L->b, ch.col, ci64(L, (long long)j * L->tpr * L->vec), "");
		LLVMValueRef in = LLVMBuildICmp(L->b, LLVMIntSLT, c, L->body_hi, "");
		ch.valid[j] = LLVMBuildAnd(L->b, in, L->rowok, "");
	}
	L->el = ch.el;
	return ch;
}

Chunk
chunk_at(Lower *L, LLVMValueRef base)
{
	return chunk_make(L, base, 0);
}

Chunk
chunk_whole(Lower *L, LLVMValueRef base)
{
	return chunk_make(L, base, 1);
}

/* Where a row's 16-byte vectors start: a row begins at row*stride elements, as misaligned as
 * row*N (the stride rule, config_stride_modulus), so with N not a multiple of vec the first pad =
 * (-(row*N + seg_start)) mod vec columns of a segment lie before the first aligned vector. The
 * body is the whole aligned vectors after them; the head (the pad) and the tail (fewer than vec
 * columns after the body) go to the edge chunk. */
void
body_bounds(Lower *L, LLVMValueRef row_n)
{
	LLVMBuilderRef b = L->b;
	LLVMValueRef m = ci64(L, L->vec - 1);
	LLVMValueRef first = LLVMBuildAdd(b, row_n, L->seg_start, "");
	LLVMValueRef pad = LLVMBuildAnd(b, LLVMBuildNeg(b, first, ""), m, "");
	LLVMValueRef len = LLVMBuildSub(b, L->seg_end, L->seg_start, "");
	LLVMValueRef pos = LLVMBuildICmp(b, LLVMIntSGT, len, ci64(L, 0), "");
	len = LLVMBuildSelect(b, pos, len, ci64(L, 0), "");
	LLVMValueRef short_ = LLVMBuildICmp(b, LLVMIntSLT, len, pad, "");
	LLVMValueRef head = LLVMBuildSelect(b, short_, len, pad, "");
	L->body_lo = LLVMBuildAdd(b, L->seg_start, head, "");
	LLVMValueRef body = LLVMBuildAnd(b, LLVMBuildSub(b, len, head, ""), ci64(L, -L->vec), "");
	L->body_hi = LLVMBuildAdd(b, L->body_lo, body, "");
}

/* The edge chunk: element q = j*tpr + lane is head column seg_start + q while q < head, then tail
 * column body_hi + (q - head); fewer than 2*vec columns, so a few scalar accesses per row. */
Chunk
chunk_edge(Lower *L)
{
	LLVMBuilderRef b = L->b;
	int n = (2 * (L->vec - 1) + L->tpr - 1) / L->tpr;
	Chunk ch = {.vec = 1, .nvec = n, .E = n};
	ch.valid = arena_alloc(L->a, sizeof(LLVMValueRef) * n);
	ch.vcol = arena_alloc(L->a, sizeof(LLVMValueRef) * n);
	ch.el = arena_alloc(L->a, sizeof(LLVMValueRef *) * (L->k->nvals + 1));
	ch.col = L->lane;
	LLVMValueRef head = LLVMBuildSub(b, L->body_lo, L->seg_start, "");
	LLVMValueRef tail = LLVMBuildSub(b, L->seg_end, L->body_hi, "");
	LLVMValueRef pos = LLVMBuildICmp(b, LLVMIntSGT, tail, ci64(L, 0), "");
	LLVMValueRef cnt = LLVMBuildAdd(b, head, LLVMBuildSelect(b, pos, tail, ci64(L, 0), ""), "");
	LLVMValueRef tbase = LLVMBuildSub(b, L->body_hi, head, "");
	for (int j = 0; j < n; j++) {
		LLVMValueRef q = LLVMBuildAdd(b, L->lane, ci64(L, (long long)j * L->tpr), "");
		LLVMValueRef in_head = LLVMBuildICmp(b, LLVMIntSLT, q, head, "");
		ch.vcol[j] = LLVMBuildSelect(b, in_head, LLVMBuildAdd(b, L->seg_start, q, ""),
					     LLVMBuildAdd(b, tbase, q, ""), "");
		ch.valid[j] =
		    LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntSLT, q, cnt, ""), L->rowok, "");
	}
	L->el = ch.el;
	return ch;
}

/* The address of vector j: the thread's base plus a constant, which ptxas folds into the
 * load's immediate offset, so a chunk costs one 64-bit address per array. */
static LLVMValueRef
elem_ptr(Lower *L, int param, const Chunk *ch, int j)
{
	const Param *p = &L->k->params[param];
	LLVMTypeRef et = storage_type(L, p->type);
	LLVMValueRef off = ch->vcol ? ch->vcol[j] : ch->col;
	if (p->shape == SH_TILE)
		off = LLVMBuildAdd(L->b, L->rowoff[param], off, "");
	LLVMValueRef base = LLVMBuildGEP2(L->b, et, L->parg[param], &off, 1, "");
	if (ch->vcol)
		return base;
	LLVMValueRef k = ci64(L, (long long)j * L->tpr * ch->vec);
	return LLVMBuildInBoundsGEP2(L->b, et, base, &k, 1, "");
}

/* An [N] array is aligned to the row's columns only when rows start aligned: a shifted body
 * reads and writes it element by element; so does a chunk that says so (Chunk.elems). */
static int
unaligned(Lower *L, const Chunk *ch, const Param *p)
{
	return ch->vec > 1 && (ch->elems || (L->shifted && p->shape != SH_TILE));
}

static int
vec_align(Lower *L, Type t, int vec)
{
	return codegen_access_align(vec, type_size(type_resolve(t, L->c->dtype)));
}

/* What one access moves: vec elements as a vector, except bytes (i8, bool), which travel as one
 * integer of vec bytes; NVPTX lowers a vector of i8 through a phi by way of local memory. */
static LLVMTypeRef
vec_type(Lower *L, Type t, int vec)
{
	LLVMTypeRef st = storage_type(L, t);
	if (vec == 1)
		return st;
	if (type_size(type_resolve(t, L->c->dtype)) == 1)
		return LLVMIntTypeInContext(L->cx, 8 * vec);
	return LLVMVectorType(st, vec);
}

/* vec elements from ptr one at a time, packed as vec_type packs them. */
static LLVMValueRef
load_elems(Lower *L, Type t, LLVMValueRef ptr, int vec)
{
	LLVMTypeRef st = storage_type(L, t), vt = vec_type(L, t, vec);
	int size = type_size(type_resolve(t, L->c->dtype));
	LLVMValueRef v = LLVMConstNull(vt);
	for (int e = 0; e < vec; e++) {
		LLVMValueRef k = ci64(L, e);
		LLVMValueRef x =
		    load_inv(L, st, LLVMBuildInBoundsGEP2(L->b, st, ptr, &k, 1, ""), size);
		if (LLVMGetTypeKind(vt) == LLVMIntegerTypeKind)
			v = LLVMBuildOr(L->b, v,
					LLVMBuildShl(L->b, LLVMBuildZExt(L->b, x, vt, ""),
						     LLVMConstInt(vt, 8 * e, 0), ""),
					"");
		else
			v = LLVMBuildInsertElement(L->b, v, x, ci32(L, e), "");
	}
	return v;
}

/* The L2 policy for a load under evict=1, or NULL: evict_last for what is read again (an [N]
 * input, by every CTA; a row chunk, by a later pass or the column pass), evict_first for a last
 * read. Hints are PTX, so the host emulator's loads go without; accesses under 4 bytes too. */
static LLVMValueRef
load_policy(Lower *L, const Instr *in, int bytes)
{
	if (!L->c->cfg.evict || L->host || bytes < 4)
		return NULL;
	const Param *p = &L->k->params[in->param];
	int i = (int)(in - L->k->ins);
	int again =
	    p->shape == SH_VEC || (L->last_read && L->pass < L->last_read[i] && L->row_off[i] < 0);
	/* the column pass (colpass=1) reads the colsums' inputs again after the rows */
	again |= L->csum_cols && L->pass < L->plan->npasses && L->plan->need_colsum[i];
	return L->policy[again];
}

/* A load with an L2 eviction policy, as inline PTX (ld.global.nc.L2::cache_hint): LLVM 19 has no
 * way to attach a policy to a load (docs/codegen.md, "Eviction hints"). 16, 8 or 4 bytes travel as
 * 4, 2 or 1 b32 words; the asm has no side effects, so LLVM may still move or drop it like the
 * plain load it replaces. */
static LLVMValueRef
load_hinted(Lower *L, LLVMTypeRef vt, LLVMValueRef ptr, int bytes, LLVMValueRef policy)
{
	int w = bytes / 4;
	static const char *const dst[] = {"", "$0", "{$0, $1}", "", "{$0, $1, $2, $3}"};
	static const char *const outs[] = {"", "=r", "=r,=r", "", "=r,=r,=r,=r"};
	char text[128], cons[64];
	snprintf(text, sizeof text, "ld.global.nc.L2::cache_hint%s.b32 %s, [$%d], $%d;",
		 w == 4	  ? ".v4"
		 : w == 2 ? ".v2"
			  : "",
		 dst[w], w, w + 1);
	snprintf(cons, sizeof cons, "%s,l,l", outs[w]);
	LLVMTypeRef words[4] = {L->i32, L->i32, L->i32, L->i32};
	LLVMTypeRef rt = w == 1 ? L->i32 : LLVMStructTypeInContext(L->cx, words, w, 0);
	LLVMTypeRef at[2] = {LLVMTypeOf(ptr), L->i64};
	LLVMTypeRef ft = LLVMFunctionType(rt, at, 2, 0);
	LLVMValueRef fn = LLVMGetInlineAsm(ft, text, strlen(text), cons, strlen(cons), 0, 0,
					   LLVMInlineAsmDialectATT, 0);
	LLVMValueRef args[2] = {ptr, policy};
	LLVMValueRef r = LLVMBuildCall2(L->b, ft, fn, args, 2, "");
	if (w > 1) {
		LLVMValueRef v = LLVMGetUndef(LLVMVectorType(L->i32, w));
		for (int i = 0; i < w; i++)
			v = LLVMBuildInsertElement(L->b, v, LLVMBuildExtractValue(L->b, r, i, ""),
						   ci32(L, i), "");
		r = v;
	}
	return LLVMBuildBitCast(L->b, r, vt, "");
}

/* The two policies, made once at the top of the kernel (createpolicy, sm_80 and later). */
void
make_policies(Lower *L)
{
	static const char *const text[2] = {"createpolicy.fractional.L2::evict_first.b64 $0, 1.0;",
					    "createpolicy.fractional.L2::evict_last.b64 $0, 1.0;"};
	LLVMTypeRef ft = LLVMFunctionType(L->i64, NULL, 0, 0);
	for (int i = 0; i < 2; i++) {
		LLVMValueRef fn = LLVMGetInlineAsm(ft, text[i], strlen(text[i]), "=l", 2, 0, 0,
						   LLVMInlineAsmDialectATT, 0);
		L->policy[i] = LLVMBuildCall2(L->b, ft, fn, NULL, 0, "");
	}
}

/* The end of a load v made in block ld only where its vector is valid (from `from`, the block
 * that branched): the builder goes on at next, and the result is v, or zero where masked. */
static LLVMValueRef
join_masked(Lower *L, LLVMValueRef v, LLVMBasicBlockRef ld, LLVMBasicBlockRef from,
	    LLVMBasicBlockRef next)
{
	LLVMBuildBr(L->b, next);
	LLVMPositionBuilderAtEnd(L->b, next);
	LLVMValueRef phi = LLVMBuildPhi(L->b, LLVMTypeOf(v), "");
	LLVMValueRef in_v[2] = {v, LLVMConstNull(LLVMTypeOf(v))};
	LLVMBasicBlockRef in_b[2] = {ld, from};
	LLVMAddIncoming(phi, in_v, in_b, 2);
	return phi;
}

/* smem=1: where vector j of a body chunk keeps its place in instruction i's region of dynamic
 * shared memory (a kept load's, of elements st; a stashed value's, f32; under the ring, a load's
 * in the slot ring_at names): the row's slot, then the vector's column from the body's start, so
 * a thread reads back in a later pass (or block) exactly what it wrote and no barrier is
 * needed. */
static LLVMValueRef
region_ptr(Lower *L, int i, LLVMTypeRef st, const Chunk *ch, int j)
{
	LLVMValueRef row = LLVMBuildAdd(L->b, ci64(L, L->row_off[i]),
					LLVMBuildMul(L->b, LLVMBuildZExt(L->b, L->grp, L->i64, ""),
						     ci64(L, L->row_bytes[i]), ""),
					"");
	if (L->ring_at)
		row = LLVMBuildAdd(L->b, row, L->ring_at, "");
	LLVMValueRef base = LLVMBuildGEP2(L->b, L->i8, L->dyn, &row, 1, "");
	LLVMValueRef col = LLVMBuildAdd(L->b, LLVMBuildSub(L->b, ch->col, L->body_lo, ""),
					ci64(L, (long long)j * L->tpr * ch->vec), "");
	return LLVMBuildInBoundsGEP2(L->b, st, base, &col, 1, "");
}

static LLVMValueRef
kept_ptr(Lower *L, const Instr *in, const Chunk *ch, int j)
{
	return region_ptr(L, (int)(in - L->k->ins), storage_type(L, L->k->params[in->param].type),
			  ch, j);
}

void
stash_store(Lower *L, const Instr *in, const Chunk *ch)
{
	int i = (int)(in - L->k->ins);
	LLVMValueRef *x = ch->el[in->res[0]];
	for (int j = 0; j < ch->nvec; j++) {
		LLVMValueRef v = x[j * ch->vec];
		if (ch->vec > 1) {
			v = LLVMGetUndef(LLVMVectorType(L->f32, ch->vec));
			for (int e = 0; e < ch->vec; e++)
				v = LLVMBuildInsertElement(L->b, v, x[j * ch->vec + e], ci32(L, e),
							   "");
		}
		LLVMBasicBlockRef st_b = LLVMAppendBasicBlockInContext(L->cx, L->fn, "stash");
		LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(L->cx, L->fn, "stash.next");
		LLVMBuildCondBr(L->b, ch->valid[j], st_b, next);
		LLVMPositionBuilderAtEnd(L->b, st_b);
		LLVMSetAlignment(LLVMBuildStore(L->b, v, region_ptr(L, i, L->f32, ch, j)),
				 codegen_access_align(ch->vec, 4));
		LLVMBuildBr(L->b, next);
		LLVMPositionBuilderAtEnd(L->b, next);
	}
}

void
stash_load(Lower *L, const Instr *in, const Chunk *ch)
{
	int i = (int)(in - L->k->ins);
	LLVMTypeRef vt = ch->vec > 1 ? LLVMVectorType(L->f32, ch->vec) : L->f32;
	LLVMValueRef *out = arena_alloc(L->a, sizeof(LLVMValueRef) * ch->E);
	for (int j = 0; j < ch->nvec; j++) {
		LLVMBasicBlockRef from = LLVMGetInsertBlock(L->b);
		LLVMBasicBlockRef ld = LLVMAppendBasicBlockInContext(L->cx, L->fn, "unstash");
		LLVMBasicBlockRef next =
		    LLVMAppendBasicBlockInContext(L->cx, L->fn, "unstash.next");
		LLVMBuildCondBr(L->b, ch->valid[j], ld, next);
		LLVMPositionBuilderAtEnd(L->b, ld);
		LLVMValueRef v = LLVMBuildLoad2(L->b, vt, region_ptr(L, i, L->f32, ch, j), "");
		LLVMSetAlignment(v, codegen_access_align(ch->vec, 4));
		LLVMValueRef phi = join_masked(L, v, ld, from, next);
		for (int e = 0; e < ch->vec; e++)
			out[j * ch->vec + e] =
			    ch->vec > 1 ? LLVMBuildExtractElement(L->b, phi, ci32(L, e), "") : phi;
	}
	ch->el[in->res[0]] = out;
}

void
keep_async(Lower *L, const Chunk *ch)
{
	static const char *const copy[3] = {"llvm.nvvm.cp.async.ca.shared.global.4",
					    "llvm.nvvm.cp.async.ca.shared.global.8",
					    "llvm.nvvm.cp.async.cg.shared.global.16"};
	for (int i = 0; i < L->k->nins; i++) {
		if (L->row_off[i] < 0 || L->k->ins[i].op != OP_LOAD)
			continue; /* not kept, or a stashed value */
		const Instr *in = &L->k->ins[i];
		int dup = 0; /* the ring: loads of one input share its region */
		for (int e = 0; e < i; e++)
			dup |= L->k->ins[e].op == OP_LOAD && L->k->ins[e].param == in->param &&
			       L->row_off[e] == L->row_off[i];
		if (dup)
			continue;
		int bytes =
		    ch->vec * type_size(type_resolve(L->k->params[in->param].type, L->c->dtype));
		const char *name = copy[bytes == 16 ? 2 : bytes == 8];
		for (int j = 0; j < ch->nvec; j++) {
			LLVMBasicBlockRef cp = LLVMAppendBasicBlockInContext(L->cx, L->fn, "fill");
			LLVMBasicBlockRef next =
			    LLVMAppendBasicBlockInContext(L->cx, L->fn, "fill.next");
			LLVMBuildCondBr(L->b, ch->valid[j], cp, next);
			LLVMPositionBuilderAtEnd(L->b, cp);
			LLVMValueRef a[2] = {kept_ptr(L, in, ch, j), elem_ptr(L, in->param, ch, j)};
			intr(L, name, NULL, a, 2);
			LLVMBuildBr(L->b, next);
			LLVMPositionBuilderAtEnd(L->b, next);
		}
	}
}

/* Whether the chunk's vectors of the load in come from shared memory: a kept [M,N] input's body
 * chunk in every pass under smem=2, in every pass after the one that fills it under smem=1, and
 * under the ring in every block. */
static int
reads_kept(Lower *L, const Instr *in, const Chunk *ch)
{
	int i = (int)(in - L->k->ins);
	int kept = L->row_off[i] >= 0 && !ch->vcol;
	return kept && (L->ring || !(L->c->cfg.smem == 1 && L->pass == L->plan->first_read[i]));
}

/* A load's raw vectors over the chunk: vec-wide loads, all issued before any use; a
 * masked vector is not read (ptxas predicates the load) and reads as zero, except in a whole
 * chunk, which reads every vector (a row past M, row M-1's). Under smem=1 a
 * re-read [M,N] input's body chunks go to shared memory in the pass that first reads them, once
 * the chunk's loads are issued, and come from there in the later passes; under smem=2 keep_async
 * has copied them there ahead of the first pass, and every pass reads them there. */
LLVMValueRef *
load_raw(Lower *L, const Instr *in, const Chunk *ch)
{
	const Param *p = &L->k->params[in->param];
	LLVMTypeRef vt = vec_type(L, p->type, ch->vec);
	LLVMValueRef *raw = arena_alloc(L->a, sizeof(LLVMValueRef) * ch->nvec);
	int i = (int)(in - L->k->ins);
	int kept = reads_kept(L, in, ch);
	int first = L->row_off[i] >= 0 && !ch->vcol && !kept; /* smem=1: the pass that fills */
	for (int j = 0; j < ch->nvec; j++) {
		LLVMValueRef ptr = kept ? kept_ptr(L, in, ch, j) : elem_ptr(L, in->param, ch, j);
		LLVMBasicBlockRef from = LLVMGetInsertBlock(L->b), ld = from, next = from;
		if (!ch->whole) {
			ld = LLVMAppendBasicBlockInContext(L->cx, L->fn, "ld");
			next = LLVMAppendBasicBlockInContext(L->cx, L->fn, "ld.next");
			LLVMBuildCondBr(L->b, ch->valid[j], ld, next);
			LLVMPositionBuilderAtEnd(L->b, ld);
		}
		int bytes = ch->vec * type_size(type_resolve(p->type, L->c->dtype));
		LLVMValueRef v;
		if (kept) {
			v = LLVMBuildLoad2(L->b, vt, ptr, "");
			LLVMSetAlignment(v, vec_align(L, p->type, ch->vec));
		} else {
			LLVMValueRef pol = unaligned(L, ch, p) ? NULL : load_policy(L, in, bytes);
			v = unaligned(L, ch, p) ? load_elems(L, p->type, ptr, ch->vec)
			    : pol		? load_hinted(L, vt, ptr, bytes, pol)
				  : load_inv(L, vt, ptr, vec_align(L, p->type, ch->vec));
		}
		raw[j] = ch->whole ? v : join_masked(L, v, ld, from, next);
	}
	for (int j = 0; first && j < ch->nvec; j++) {
		LLVMBasicBlockRef st_b = LLVMAppendBasicBlockInContext(L->cx, L->fn, "keep");
		LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(L->cx, L->fn, "keep.next");
		LLVMBuildCondBr(L->b, ch->valid[j], st_b, next);
		LLVMPositionBuilderAtEnd(L->b, st_b);
		LLVMSetAlignment(LLVMBuildStore(L->b, raw[j], kept_ptr(L, in, ch, j)),
				 vec_align(L, p->type, ch->vec));
		LLVMBuildBr(L->b, next);
		LLVMPositionBuilderAtEnd(L->b, next);
	}
	return raw;
}

/* Raw vector v of bytes bytes through a `mov` that names the block's row (a pure inline asm, so
 * it orders no memory access, but one LICM cannot hoist out of the grid's loop): an [N] input a
 * grid holds across its blocks is then unpacked in the block that uses it, not once before the
 * loop, which would hold twice the registers (bf16 as f32) across the block's code
 * (layer_norm_backward bf16 8192x8192: 127 -> 124 registers, 164.2 -> 158.4 us on the H100). */
static LLVMValueRef
held_in_block(Lower *L, LLVMValueRef v, int bytes)
{
	if (bytes % 4)
		return v;
	int n = bytes / 4;
	LLVMTypeRef wt = n > 1 ? LLVMVectorType(L->i32, n) : L->i32;
	LLVMValueRef w = LLVMBuildBitCast(L->b, v, wt, "");
	LLVMTypeRef at[2] = {L->i32, L->i32};
	LLVMTypeRef ft = LLVMFunctionType(L->i32, at, 2, 0);
	const char *text = "mov.b32 $0, $1; // row $2";
	LLVMValueRef mov =
	    LLVMGetInlineAsm(ft, text, strlen(text), "=r,r,r", 6, 0, 0, LLVMInlineAsmDialectATT, 0);
	LLVMValueRef row = LLVMBuildTrunc(L->b, L->row, L->i32, "");
	for (int e = 0; e < n; e++) {
		LLVMValueRef x = n > 1 ? LLVMBuildExtractElement(L->b, w, ci32(L, e), "") : w;
		LLVMValueRef args[2] = {x, row};
		x = LLVMBuildCall2(L->b, ft, mov, args, 2, "");
		w = n > 1 ? LLVMBuildInsertElement(L->b, w, x, ci32(L, e), "") : x;
	}
	return LLVMBuildBitCast(L->b, w, LLVMTypeOf(v), "");
}

/* A vector of vec bf16 (vec even) as f32, a 32-bit word a pair: the low one shifted up, the
 * high one masked, one instruction each. A bf16 is the top half of the f32 of the same value, so
 * this is the conversion, exactly; cvt.f32.bf16 on a register pair takes ptxas a PRMT and a shift
 * for the high half (bf16 cross_entropy_backward: 26 instructions for 16 elements, now 16). Only
 * for vectors read from shared memory: after global loads ptxas then put math that waits on the
 * first loads ahead of the last ones (dynamic_quant bf16 6144x131072, 1.040x the time;
 * gated_rmsnorm 1.026-1.037x), where after cvt.f32.bf16 it issues every load first. */
static void
bf16_unpack(Lower *L, LLVMValueRef v, int vec, LLVMValueRef *out)
{
	LLVMValueRef w = LLVMBuildBitCast(L->b, v, LLVMVectorType(L->i32, vec / 2), "");
	for (int i = 0; i < vec / 2; i++) {
		LLVMValueRef x = LLVMBuildExtractElement(L->b, w, ci32(L, i), "");
		out[2 * i] =
		    LLVMBuildBitCast(L->b, LLVMBuildShl(L->b, x, ci32(L, 16), ""), L->f32, "");
		out[2 * i + 1] = LLVMBuildBitCast(
		    L->b, LLVMBuildAnd(L->b, x, LLVMConstInt(L->i32, 0xffff0000u, 0), ""), L->f32,
		    "");
	}
}

/* The chunk's raw vectors of elements of type t as one f32 value an element, into out. */
static void
unpack_raw(Lower *L, Type t, LLVMValueRef *raw, const Chunk *ch, LLVMValueRef *out)
{
	LLVMTypeRef st = storage_type(L, t), vt = vec_type(L, t, ch->vec);
	LLVMTypeRef i16 = LLVMInt16TypeInContext(L->cx);
	int pairs = f8_hw(L, t) && ch->vec % 2 == 0; /* fp8 a pair a conversion */
	for (int j = 0; j < ch->nvec; j++)
		for (int e = 0; e < ch->vec; e += pairs ? 2 : 1) {
			LLVMValueRef v = raw[j];
			if (pairs) {
				v = LLVMBuildLShr(L->b, v, LLVMConstInt(vt, 8 * e, 0), "");
				from_storage_pair(L, t, LLVMBuildTrunc(L->b, v, i16, ""),
						  &out[j * ch->vec + e]);
				continue;
			}
			if (LLVMGetTypeKind(vt) == LLVMIntegerTypeKind && ch->vec > 1)
				v = LLVMBuildTrunc(
				    L->b, LLVMBuildLShr(L->b, v, LLVMConstInt(vt, 8 * e, 0), ""),
				    st, "");
			else if (ch->vec > 1)
				v = LLVMBuildExtractElement(L->b, v, ci32(L, e), "");
			out[j * ch->vec + e] = from_storage(L, t, v);
		}
}

/* From global memory a plain load, not an invariant one: ld.global.nc may not read what the
 * kernel wrote. No eviction hint: the line was written a pass ago, and this is its last read. A
 * row kept on chip reads it from the value's place in shared memory (keep_value). */
void
reload_tile(Lower *L, const Instr *st, const Instr *in, const Chunk *ch)
{
	const Param *p = &L->k->params[st->param];
	LLVMTypeRef vt = vec_type(L, p->type, ch->vec);
	LLVMValueRef *raw = arena_alloc(L->a, sizeof(LLVMValueRef) * ch->nvec);
	int i = (int)(in - L->k->ins), kept = L->row_off[i] >= 0;
	for (int j = 0; j < ch->nvec; j++) {
		LLVMBasicBlockRef from = LLVMGetInsertBlock(L->b);
		LLVMBasicBlockRef ld = LLVMAppendBasicBlockInContext(L->cx, L->fn, "reload");
		LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(L->cx, L->fn, "reload.next");
		LLVMBuildCondBr(L->b, ch->valid[j], ld, next);
		LLVMPositionBuilderAtEnd(L->b, ld);
		LLVMValueRef ptr = kept ? region_ptr(L, i, storage_type(L, p->type), ch, j)
					: elem_ptr(L, st->param, ch, j);
		LLVMValueRef v = LLVMBuildLoad2(L->b, vt, ptr, "");
		LLVMSetAlignment(v, vec_align(L, p->type, ch->vec));
		raw[j] = join_masked(L, v, ld, from, next);
	}
	LLVMValueRef *out = arena_alloc(L->a, sizeof(LLVMValueRef) * ch->E);
	unpack_raw(L, p->type, raw, ch, out);
	ch->el[in->res[0]] = out;
}

/* Loads a [M,N] or [N] input for the chunk into out, one value an element; a body chunk takes
 * the vectors L->given has for the load where it has them. */
static void
lower_load_tile(Lower *L, const Instr *in, const Chunk *ch, LLVMValueRef *out)
{
	const Param *p = &L->k->params[in->param];
	int i = (int)(in - L->k->ins);
	LLVMValueRef *raw =
	    L->given && L->given[i] && !ch->vcol ? L->given[i] : load_raw(L, in, ch);
	if (L->held_in_block && L->given && raw == L->given[i] && p->shape == SH_VEC && !L->host) {
		int bytes = ch->vec * type_size(type_resolve(p->type, L->c->dtype));
		LLVMValueRef *v = arena_alloc(L->a, sizeof(LLVMValueRef) * ch->nvec);
		for (int j = 0; j < ch->nvec; j++)
			v[j] = held_in_block(L, raw[j], bytes);
		raw = v;
	}
	int unpack = type_resolve(p->type, L->c->dtype) == TY_BF16 && ch->vec % 2 == 0 &&
		     !(L->given && raw == L->given[i]) && reads_kept(L, in, ch);
	if (!unpack) {
		unpack_raw(L, p->type, raw, ch, out);
		return;
	}
	for (int j = 0; j < ch->nvec; j++)
		bf16_unpack(L, raw[j], ch->vec, out + j * ch->vec);
}

/* Store in's value over the chunk to its output, or with region >= 0 to instruction region's
 * place in shared memory (the read-back of a row kept on chip), in the output's type. */
static void
store_to(Lower *L, const Instr *in, const Chunk *ch, int region)
{
	const Param *p = &L->k->params[in->param];
	LLVMTypeRef st = storage_type(L, p->type);
	LLVMTypeRef vt = vec_type(L, p->type, ch->vec);
	L->el = ch->el;
	Type rt = type_resolve(p->type, L->c->dtype);
	int uv = unaligned(L, ch, p), size = type_size(rt);
	for (int j = 0; j < ch->nvec; j++) {
		LLVMValueRef v;
		if (uv) {
			v = NULL; /* stored element by element below */
		} else if (LLVMGetTypeKind(vt) == LLVMIntegerTypeKind && ch->vec > 1) {
			/* bytes packed into an integer; fp8 a pair a conversion where f8_hw */
			int step = f8_hw(L, p->type) && ch->vec % 2 == 0 ? 2 : 1;
			v = LLVMConstInt(vt, 0, 0);
			for (int e = 0; e < ch->vec; e += step) {
				int at = j * ch->vec + e;
				LLVMValueRef x =
				    step == 2
					? LLVMBuildBitCast(
					      L->b,
					      to_storage_pair(L, p->type,
							      operand(L, &in->args[0], at),
							      operand(L, &in->args[0], at + 1)),
					      LLVMInt16TypeInContext(L->cx), "")
					: to_storage(L, p->type, operand(L, &in->args[0], at));
				x = LLVMBuildShl(L->b, LLVMBuildZExt(L->b, x, vt, ""),
						 LLVMConstInt(vt, 8 * e, 0), "");
				v = LLVMBuildOr(L->b, v, x, "");
			}
		} else if (ch->vec > 1 && (rt == TY_BF16 || rt == TY_F16)) {
			/* a pair a conversion (vec is even for 2-byte types) */
			v = LLVMGetUndef(LLVMVectorType(st, ch->vec));
			for (int e = 0; e < ch->vec; e += 2) {
				LLVMValueRef pr = to_storage_pair(
				    L, p->type, operand(L, &in->args[0], j * ch->vec + e),
				    operand(L, &in->args[0], j * ch->vec + e + 1));
				for (int h = 0; h < 2; h++)
					v = LLVMBuildInsertElement(
					    L->b, v,
					    LLVMBuildExtractElement(L->b, pr, ci32(L, h), ""),
					    ci32(L, e + h), "");
			}
		} else if (ch->vec > 1) {
			v = LLVMGetUndef(LLVMVectorType(st, ch->vec));
			for (int e = 0; e < ch->vec; e++) {
				LLVMValueRef x = to_storage(
				    L, p->type, operand(L, &in->args[0], j * ch->vec + e));
				v = LLVMBuildInsertElement(L->b, v, x, ci32(L, e), "");
			}
		} else {
			v = to_storage(L, p->type, operand(L, &in->args[0], j));
		}
		LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(L->cx, L->fn, "st");
		LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(L->cx, L->fn, "st.next");
		LLVMBuildCondBr(L->b, ch->valid[j], yes, next);
		LLVMPositionBuilderAtEnd(L->b, yes);
		LLVMValueRef ptr =
		    region >= 0 ? region_ptr(L, region, st, ch, j) : elem_ptr(L, in->param, ch, j);
		if (uv) {
			for (int e = 0; e < ch->vec; e++) {
				LLVMValueRef x = to_storage(
				    L, p->type, operand(L, &in->args[0], j * ch->vec + e));
				LLVMValueRef k = ci64(L, e);
				LLVMSetAlignment(
				    LLVMBuildStore(L->b, x,
						   LLVMBuildInBoundsGEP2(L->b, st, ptr, &k, 1, "")),
				    size);
			}
		} else {
			LLVMSetAlignment(LLVMBuildStore(L->b, v, ptr),
					 vec_align(L, p->type, ch->vec));
		}
		LLVMBuildBr(L->b, next);
		LLVMPositionBuilderAtEnd(L->b, next);
	}
}

void
store_tile(Lower *L, const Instr *in, const Chunk *ch)
{
	store_to(L, in, ch, -1);
}

void
keep_value(Lower *L, const Instr *st, const Instr *in, const Chunk *ch)
{
	store_to(L, st, ch, (int)(in - L->k->ins));
}

/* The sub whose result exp in takes, where it subtracts a row value (or a literal) from a tile
 * that streams: exp(t - r) then needs r*log2 e once a row (fexp_sub). NULL for any other exp,
 * and in a persistent row, whose tiles stay in registers: there the fold moved ptxas's
 * allocation past two CTAs an SM (cross_entropy_backward fp32 4096x16384, 121 -> 137
 * registers, 1.31x the time) and gained nothing measured (softmax 1.000x). */
static const Instr *
row_sub(Lower *L, const Instr *in)
{
	if (in->op != OP_EXP || in->args[0].kind != ARG_VAL || L->c->cfg.persistent)
		return NULL;
	const Instr *d = &L->k->ins[L->k->vals[in->args[0].idx].def];
	if (d->op != OP_SUB || d->args[0].kind != ARG_VAL || !is_tile(L, d->args[0].idx) ||
	    (d->args[1].kind == ARG_VAL && is_tile(L, d->args[1].idx)))
		return NULL;
	return d;
}

/* Which operand of the add, sub, mul, max or min in is a select of two row values by a tile's
 * predicate while the other is a row value, or -1. The op is then made on the two arms once a
 * row, not once an element: the same result, exactly (cross_entropy_backward's
 * `select(onehot, 1 - ls, 0) + ls/N`). */
static int
select_arms(Lower *L, const Instr *in)
{
	if (in->op != OP_ADD && in->op != OP_SUB && in->op != OP_MUL && in->op != OP_MAX &&
	    in->op != OP_MIN)
		return -1;
	for (int c = 0; c < 2; c++) {
		const Arg *s = &in->args[c], *r = &in->args[1 - c];
		if (s->kind != ARG_VAL || !is_tile(L, s->idx) ||
		    (r->kind == ARG_VAL && is_tile(L, r->idx)))
			continue;
		const Instr *d = &L->k->ins[L->k->vals[s->idx].def];
		if (d->op == OP_SELECT &&
		    !(d->args[1].kind == ARG_VAL && is_tile(L, d->args[1].idx)) &&
		    !(d->args[2].kind == ARG_VAL && is_tile(L, d->args[2].idx)))
			return c;
	}
	return -1;
}

/* Whether in selects between float tiles (or a tile and a row value) by a row value's predicate:
 * an and-or with a mask made once a row then takes one LOP3 an element, where ptxas
 * gives FSEL and, short of predicate registers, a PLOP3 to copy the uniform predicate for each
 * (cross_entropy_backward's `select(ok, g, 0)`: 35 instructions for 16 elements, now 16). */
static int
row_select(Lower *L, const Instr *in)
{
	return in->op == OP_SELECT && in->res[0] >= 0 &&
	       type_is_float(type_resolve(L->k->vals[in->res[0]].type, L->c->dtype)) &&
	       !(in->args[0].kind == ARG_VAL && is_tile(L, in->args[0].idx));
}

/* All ones where the row predicate p holds, else zero, through a `mov` LLVM cannot see into: it
 * would turn the and with a sign-extended predicate back into a select (as it may on the host,
 * which has no PTX to hide it in: the bits are the same). */
static LLVMValueRef
opaque_mask(Lower *L, LLVMValueRef p)
{
	LLVMValueRef m = LLVMBuildSExt(L->b, p, L->i32, "");
	if (L->host)
		return m;
	LLVMTypeRef ft = LLVMFunctionType(L->i32, &L->i32, 1, 0);
	const char *text = "mov.b32 $0, $1;";
	LLVMValueRef mov =
	    LLVMGetInlineAsm(ft, text, strlen(text), "=r,r", 4, 0, 0, LLVMInlineAsmDialectATT, 0);
	return LLVMBuildCall2(L->b, ft, mov, &m, 1, "");
}

/* A tile instruction over the chunk: its E elements into L->el. */
void
lower_tile(Lower *L, const Instr *in, const Chunk *ch)
{
	int r = in->res[0], c;
	const Instr *sub;
	LLVMValueRef *out = arena_alloc(L->a, sizeof(LLVMValueRef) * ch->E);
	L->el = ch->el;
	if (in->op == OP_LOAD) {
		lower_load_tile(L, in, ch, out);
	} else if (in->op == OP_COL) {
		for (int e = 0; e < ch->E; e++)
			out[e] = chunk_col(L, ch, e);
	} else if (in->op == OP_DIV &&
		   (in->args[1].kind != ARG_VAL || !is_tile(L, in->args[1].idx))) {
		/* dividing by a row value or a scalar: one reciprocal, then multiplies */
		LLVMValueRef inv = frcp(L, operand(L, &in->args[1], 0));
		for (int e = 0; e < ch->E; e++)
			out[e] = ffmul(L, operand(L, &in->args[0], e), inv);
	} else if ((sub = row_sub(L, in))) {
		/* exp(t - r), r a row value: one fma and one ex2 an element */
		LLVMValueRef r = operand(L, &sub->args[1], 0);
		for (int e = 0; e < ch->E; e++)
			out[e] = fexp_sub(L, operand(L, &sub->args[0], e), r);
	} else if ((c = select_arms(L, in)) >= 0) {
		/* op(select(p, a, b), r), a, b and r row values: select(p, op(a, r), op(b, r)) */
		const Instr *sel = &L->k->ins[L->k->vals[in->args[c].idx].def];
		LLVMValueRef x[2], arm[2];
		x[1 - c] = operand(L, &in->args[1 - c], 0);
		for (int k = 0; k < 2; k++) {
			x[c] = operand(L, &sel->args[1 + k], 0);
			arm[k] = apply_op(L, in, x);
		}
		for (int e = 0; e < ch->E; e++)
			out[e] =
			    LLVMBuildSelect(L->b, operand(L, &sel->args[0], e), arm[0], arm[1], "");
	} else if (row_select(L, in)) {
		/* select(p, a, b), p a row value: a's bits under the mask, b's elsewhere */
		LLVMValueRef m = opaque_mask(L, operand(L, &in->args[0], 0));
		LLVMValueRef nm = LLVMBuildNot(L->b, m, "");
		for (int e = 0; e < ch->E; e++) {
			LLVMValueRef a =
			    LLVMBuildBitCast(L->b, operand(L, &in->args[1], e), L->i32, "");
			LLVMValueRef b =
			    LLVMBuildBitCast(L->b, operand(L, &in->args[2], e), L->i32, "");
			LLVMValueRef v = LLVMBuildOr(L->b, LLVMBuildAnd(L->b, a, m, ""),
						     LLVMBuildAnd(L->b, b, nm, ""), "");
			out[e] = LLVMBuildBitCast(L->b, v, L->f32, "");
		}
	} else if ((c = col_compare(L, in)) >= 0) {
		/* a column against a row value: 32-bit compares */
		LLVMValueRef x[2];
		x[1 - c] = col_bound(L, operand(L, &in->args[1 - c], 0));
		for (int e = 0; e < ch->E; e++) {
			x[c] = LLVMBuildTrunc(L->b, operand(L, &in->args[c], e), L->i32, "");
			out[e] = apply_op(L, in, x);
		}
	} else {
		for (int e = 0; e < ch->E; e++) {
			LLVMValueRef x[MAX_ARGS];
			for (int i = 0; i < in->nargs; i++)
				x[i] = operand(L, &in->args[i], e);
			out[e] = apply_op(L, in, x);
		}
	}
	if (r >= 0)
		ch->el[r] = out;
}

LLVMValueRef
load_row_raw(Lower *L, const Instr *in)
{
	const Param *p = &L->k->params[in->param];
	LLVMTypeRef st = storage_type(L, p->type);
	LLVMValueRef r = LLVMBuildSelect(L->b, L->rowok, L->row, ci64(L, 0), "");
	LLVMValueRef ptr = LLVMBuildGEP2(L->b, st, L->parg[in->param], &r, 1, "");
	return load_inv(L, st, ptr, type_size(type_resolve(p->type, L->c->dtype)));
}

/* A row-uniform instruction: loads of [M] inputs, gathers, and scalar arithmetic. */
void
lower_uniform(Lower *L, const Instr *in)
{
	LLVMValueRef v;
	if (in->op == OP_LOAD) {
		int i = (int)(in - L->k->ins);
		v = from_storage(L, L->k->params[in->param].type,
				 L->given_row && L->given_row[i] ? L->given_row[i]
								 : load_row_raw(L, in));
	} else if (in->op == OP_GATHER) {
		/* x[row, idx[row]] with idx clamped into the row, so a bad label cannot fault */
		const Param *p = &L->k->params[in->param];
		LLVMTypeRef st = storage_type(L, p->type);
		LLVMValueRef idx =
		    LLVMBuildIntCast2(L->b, operand(L, &in->args[0], 0), L->i64, 1, "");
		LLVMValueRef last = LLVMBuildSub(L->b, L->N, ci64(L, 1), "");
		LLVMValueRef neg = LLVMBuildICmp(L->b, LLVMIntSLT, idx, ci64(L, 0), "");
		idx = LLVMBuildSelect(L->b, neg, ci64(L, 0), idx, "");
		LLVMValueRef big = LLVMBuildICmp(L->b, LLVMIntSGT, idx, last, "");
		idx = LLVMBuildSelect(L->b, big, last, idx, "");
		LLVMValueRef off = LLVMBuildAdd(L->b, L->rowoff[in->param], idx, "");
		LLVMValueRef ptr = LLVMBuildGEP2(L->b, st, L->parg[in->param], &off, 1, "");
		v = from_storage(
		    L, p->type,
		    load_inv(L, st, ptr, type_size(type_resolve(p->type, L->c->dtype))));
	} else {
		LLVMValueRef x[MAX_ARGS];
		for (int i = 0; i < in->nargs; i++)
			x[i] = operand(L, &in->args[i], 0);
		v = apply_op(L, in, x);
	}
	if (in->res[0] >= 0)
		L->uni[in->res[0]] = v;
}

static int
uniform_ready(Lower *L, int i)
{
	const Instr *in = &L->k->ins[i];
	if (L->done[i] || in->op == OP_STORE || op_is_reduce(in->op) || in->nres == 0)
		return 0;
	if (in->res[0] >= 0 && is_tile(L, in->res[0]))
		return 0;
	for (int j = 0; j < in->nargs; j++)
		if (in->args[j].kind == ARG_VAL && !L->uni[in->args[j].idx])
			return 0;
	return 1;
}

/* Every row-uniform instruction whose operands are known, in program order. */
void
lower_ready_uniform(Lower *L)
{
	for (int i = 0; i < L->k->nins; i++)
		if (uniform_ready(L, i)) {
			lower_uniform(L, &L->k->ins[i]);
			L->done[i] = 1;
		}
}
