/* Lowering: reductions, per thread and across a row's threads, split rows and row outputs. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "codegen/lower.h"

void
red_identity(Lower *L, Red *r)
{
	switch (r->kind) {
	case K_SUM:
	case K_WELF2:
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
		for (int c = 1; c < r->ncomp; c++)
			r->acc[c] = cf(L, 0);
		break;
	}
}

Red
red_new(Lower *L, int i)
{
	const Instr *in = &L->k->ins[i];
	Red r = {.ins = i};
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

/* Welford over a row held in registers (a persistent row), in two exact passes: the row's sum
 * gives the mean, then the squares of the distances to it are summed; the count is N, as the whole
 * row is the CTA's. The first pass is a plain sum (K_WELF2), whose lanes end with the same bits;
 * the second is another sum over the same registers. A level of a warp's butterfly is then two
 * shuffles and two adds where Chan's merge costs three shuffles, a reciprocal and about nine more
 * operations (and three shuffles at the end to give every lane the first lane's result, the merge
 * not being symmetric); a row over several warps pays a second barrier and round trip through
 * shared memory for it. It is also the interpreter's arithmetic (analysis/interp.c). Measured on
 * an H200 against Chan's merges (bench/results/h200-2026-11-28-welford.md): 0.980x the time by
 * geomean at 29 points whose rows are within a warp (bf16 300000x100 0.852x, 1048576x40 0.909x;
 * two slower by over 2%, 100003x17 1.066x, a pick that spills either way) and 0.986x at 15 whose
 * rows span 2 to 16 warps (none slower by over 2%). A row over several CTAs (a cluster, a
 * cooperative group) keeps Chan's merges: there each exchange costs a cluster barrier or a round
 * trip through global memory, and the second pass would double them. */
static int
welford_two_pass(const Lower *L)
{
	return L->nseg == 1;
}

Red
red_new_held(Lower *L, int i)
{
	Red r = red_new(L, i);
	if (r.kind == K_WELF && welford_two_pass(L)) {
		r.kind = K_WELF2;
		r.ncomp = 1;
		red_identity(L, &r);
	}
	return r;
}

/* Chan et al.: merge (count, mean, M2) partials; an empty side leaves the other unchanged, bit
 * for bit: b's weight is 1 when a is empty, not b's count times frcp of it, which is off by an ulp
 * at some counts and moved a constant row's mean off the constant (a row of 2^20 over a cluster
 * of 8 then had an M2 of 758, not 0). */
static void
chan(Lower *L, LLVMValueRef *a, LLVMValueRef *b, LLVMValueRef *out)
{
	LLVMValueRef n = ffadd(L, a[0], b[0]);
	LLVMValueRef pos = LLVMBuildFCmp(L->b, LLVMRealOGT, n, cf(L, 0), "");
	LLVMValueRef rn = LLVMBuildSelect(L->b, pos, frcp(L, n), cf(L, 0), "");
	LLVMValueRef dl = ffsub(L, b[1], a[1]);
	LLVMValueRef empty = LLVMBuildFCmp(L->b, LLVMRealOEQ, a[0], cf(L, 0), "");
	LLVMValueRef wb = LLVMBuildSelect(L->b, empty, cf(L, 1), ffmul(L, b[0], rn), "");
	out[1] = ffadd(L, a[1], ffmul(L, dl, wb));
	LLVMValueRef t = ffmul(L, ffmul(L, dl, dl), ffmul(L, a[0], wb));
	out[2] = ffadd(L, ffadd(L, a[2], b[2]), t);
	out[0] = n;
}

static void
combine(Lower *L, const Red *r, LLVMValueRef *a, LLVMValueRef *b, LLVMValueRef *out)
{
	switch (r->kind) {
	case K_SUM:
	case K_WELF2:
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
		/* each online sum rescaled to the larger running max */
		LLVMValueRef m = fmax2(L, a[0], b[0]), s[RED_COMP];
		for (int c = 1; c < r->ncomp; c++)
			s[c] = ffadd(L, ffmul(L, a[c], rescale(L, a[0], m)),
				     ffmul(L, b[c], rescale(L, b[0], m)));
		out[0] = m;
		for (int c = 1; c < r->ncomp; c++)
			out[c] = s[c];
	}
	}
}

/* A one-hot sum, sum(select(col == i, v, 0)) with i a row value, in a row that streams: its eq,
 * or NULL. Its terms are zero but at column i, so a thread adds its chunk's only where one of its
 * vectors holds column i (onehot_hit), and LLVM sinks the compares and selects, used nowhere
 * else, into that branch: cross_entropy_backward's first pass, 3 instructions an element fewer.
 * Not in a persistent row: a branch a chunk with the whole row held across each took ptxas to
 * 254 registers (cross_entropy_backward bf16 4096x16384, from 113; 1.63x the time). */
static const Instr *
onehot_sum(Lower *L, const Red *r, const Chunk *ch)
{
	const Instr *in = &L->k->ins[r->ins];
	if (r->kind != K_SUM || ch->vcol || in->args[0].kind != ARG_VAL || L->c->cfg.persistent)
		return NULL;
	const Instr *sel = &L->k->ins[L->k->vals[in->args[0].idx].def];
	if (sel->op != OP_SELECT || sel->args[0].kind != ARG_VAL || sel->args[2].kind != ARG_IMM ||
	    sel->args[2].imm != 0)
		return NULL;
	const Instr *eq = &L->k->ins[L->k->vals[sel->args[0].idx].def];
	return eq->op == OP_EQ && col_compare(L, eq) >= 0 ? eq : NULL;
}

/* Whether one of the thread's vectors in the chunk holds column i of eq (col == i): i - its
 * first column, unsigned, under vec. Two instructions a vector, once a chunk. */
static LLVMValueRef
onehot_hit(Lower *L, const Instr *eq, const Chunk *ch)
{
	int c = col_compare(L, eq);
	LLVMValueRef i = LLVMBuildSExtOrBitCast(L->b, operand(L, &eq->args[1 - c], 0), L->i64, "");
	LLVMValueRef hit = NULL;
	for (int j = 0; j < ch->nvec; j++) {
		LLVMValueRef d = LLVMBuildSub(L->b, i, chunk_col(L, ch, j * ch->vec), "");
		LLVMValueRef h = LLVMBuildICmp(L->b, LLVMIntULT, d, ci64(L, ch->vec), "");
		hit = hit ? LLVMBuildOr(L->b, hit, h, "") : h;
	}
	return hit;
}

/* Folds the thread's elements of the chunk into the reduction's partial. Masked-out vectors
 * contribute the identity; a vector is folded first, then selected, which saves selects. */
void
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
		/* s/cnt: frcp's quotient, then its residual (an fma, exact) divided in once more,
		 * so that the mean of equal elements is that element (frcp is off by an ulp at some
		 * counts, as 12 or 390 elements a thread) */
		LLVMValueRef rc = frcp(L, fmax2(L, cnt, cf(L, 1)));
		LLVMValueRef mean = ffmul(L, s, rc);
		mean = ffmadd(L, ffmadd(L, LLVMBuildFNeg(L->b, mean, ""), cnt, s), rc, mean);
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
		/* each fused sum's terms are exp(t - m), t from that sum's sub; while every element
		 * so far is -inf (a row whose first chunks are masked, or a cluster's segment
		 * wholly so) they are exp(t - 0), 0, not exp(-inf - -inf), a NaN that the rescale
		 * cannot undo */
		LLVMValueRef inf = LLVMBuildFCmp(L->b, LLVMRealOEQ, m, cf(L, -INFINITY), "");
		LLVMValueRef mt = LLVMBuildSelect(L->b, inf, cf(L, 0), m, "");
		for (int k = 0; k < r->nsums; k++) {
			const Instr *sum = &L->k->ins[r->sums[k]];
			const Instr *ex = &L->k->ins[L->k->vals[sum->args[0].idx].def];
			const Instr *sub = &L->k->ins[L->k->vals[ex->args[0].idx].def];
			LLVMValueRef *t = ch->el[sub->args[0].idx];
			LLVMValueRef s = cf(L, 0);
			for (int j = 0; j < ch->nvec; j++) {
				LLVMValueRef v = cf(L, 0);
				for (int e = 0; e < ch->vec; e++)
					v = ffadd(L, v, fexp_sub(L, t[j * ch->vec + e], mt));
				s = ffadd(L, s,
					  LLVMBuildSelect(L->b, ch->valid[j], v, cf(L, 0), ""));
			}
			r->acc[1 + k] =
			    ffadd(L, ffmul(L, r->acc[1 + k], rescale(L, r->acc[0], m)), s);
		}
		r->acc[0] = m;
		return;
	}
	LLVMValueRef id = r->kind == K_SUM || r->kind == K_WELF2
			      ? cf(L, 0)
			      : cf(L, r->kind == K_MAX ? -INFINITY : INFINITY);
	const Instr *eq = onehot_sum(L, r, ch);
	LLVMBasicBlockRef pre = NULL, hit = NULL, done = NULL;
	LLVMValueRef acc0 = r->acc[0];
	if (eq) {
		pre = LLVMGetInsertBlock(L->b);
		hit = LLVMAppendBasicBlockInContext(L->cx, L->fn, "onehot");
		done = LLVMAppendBasicBlockInContext(L->cx, L->fn, "onehot.done");
		LLVMBuildCondBr(L->b, onehot_hit(L, eq, ch), hit, done);
		LLVMPositionBuilderAtEnd(L->b, hit);
	}
	for (int j = 0; j < ch->nvec; j++) {
		LLVMValueRef v = x[j * ch->vec];
		for (int e = 1; e < ch->vec; e++) {
			LLVMValueRef a[RED_COMP] = {v}, b[RED_COMP] = {x[j * ch->vec + e]},
				     o[RED_COMP];
			combine(L, r, a, b, o);
			v = o[0];
		}
		LLVMValueRef a[RED_COMP] = {r->acc[0]},
			     b[RED_COMP] = {LLVMBuildSelect(L->b, ch->valid[j], v, id, "")};
		combine(L, r, a, b, r->acc);
	}
	if (eq) {
		LLVMValueRef in_hit = r->acc[0];
		LLVMBasicBlockRef from = LLVMGetInsertBlock(L->b);
		LLVMBuildBr(L->b, done);
		LLVMPositionBuilderAtEnd(L->b, done);
		LLVMValueRef phi = LLVMBuildPhi(L->b, L->f32, "");
		LLVMValueRef vals[2] = {acc0, in_hit};
		LLVMBasicBlockRef blocks[2] = {pre, from};
		LLVMAddIncoming(phi, vals, blocks, 2);
		r->acc[0] = phi;
	}
}

static void
barrier(Lower *L)
{
	intr(L, "llvm.nvvm.barrier0", NULL, NULL, 0);
}

LLVMValueRef
shfl(Lower *L, const char *name, LLVMValueRef v, LLVMValueRef lane)
{
	LLVMValueRef a[4] = {ci32(L, -1), v, lane, ci32(L, 31)};
	return intr(L, name, NULL, a, 4);
}

/* Word at + off of a shared array of partials. */
static LLVMValueRef
word(Lower *L, LLVMValueRef arr, LLVMValueRef at, int off)
{
	LLVMValueRef ix[2] = {ci32(L, 0), LLVMBuildAdd(L->b, at, ci32(L, off), "")};
	return LLVMBuildGEP2(L->b, LLVMArrayType(L->f32, 0), arr, ix, 2, "");
}

/* Where component c of contributor k's partial is (a warp of the CTA, a CTA of the cluster). */
typedef LLVMValueRef (*PartialAt)(Lower *L, const void *ctx, int c, int k);

/* The partials of nk contributors read in order and combined into r: every thread of the row
 * reads the same words in the same order, so every thread ends with the same bits. */
static void
combine_partials(Lower *L, Red *r, int nk, PartialAt at, const void *ctx)
{
	LLVMValueRef acc[RED_COMP];
	for (int k = 0; k < nk; k++) {
		LLVMValueRef v[RED_COMP];
		for (int c = 0; c < r->ncomp; c++) {
			v[c] = LLVMBuildLoad2(L->b, L->f32, at(L, ctx, c, k), "");
			LLVMSetAlignment(v[c], 4);
		}
		if (k == 0)
			memcpy(acc, v, sizeof v);
		else
			combine(L, r, acc, v, acc);
	}
	memcpy(r->acc, acc, sizeof acc);
}

/* A row's partials in shared memory: slot s of its first word at, stride words apart. */
typedef struct {
	LLVMValueRef at;
	int slot, stride;
} Slots;

static LLVMValueRef
warp_partial(Lower *L, const void *ctx, int c, int k)
{
	const Slots *sl = ctx;
	return word(L, L->smem, sl->at, (sl->slot + c) * sl->stride + k);
}

static LLVMValueRef
cta_partial(Lower *L, const void *ctx, int c, int k)
{
	const Slots *sl = ctx;
	LLVMValueRef p = word(L, L->clu, sl->at, (sl->slot + c) * sl->stride);
	if (!L->host)
		p = LLVMBuildAddrSpaceCast(L->b, p, LLVMPointerTypeInContext(L->cx, 0), "");
	LLVMValueRef a[2] = {p, ci32(L, k)};
	return intr(L, "llvm.nvvm.mapa", NULL, a, 2);
}

/* Claims the next slots (one a partial component, counted in *next) for rs, and has the threads
 * where who holds store their partials there, slot s at word at + s*stride of arr. Returns the
 * first slot; the builder is left after the stores, before any barrier. */
static int
store_partials(Lower *L, Red *rs, int n, int *next, LLVMValueRef who, LLVMValueRef arr,
	       LLVMValueRef at, int stride, const char *wr_name, const char *rd_name)
{
	int base = *next;
	for (int i = 0; i < n; i++)
		*next += rs[i].ncomp;
	LLVMBasicBlockRef wr = LLVMAppendBasicBlockInContext(L->cx, L->fn, wr_name);
	LLVMBasicBlockRef rd = LLVMAppendBasicBlockInContext(L->cx, L->fn, rd_name);
	LLVMBuildCondBr(L->b, who, wr, rd);
	LLVMPositionBuilderAtEnd(L->b, wr);
	for (int i = 0, s = base; i < n; i++)
		for (int c = 0; c < rs[i].ncomp; c++, s++)
			LLVMSetAlignment(
			    LLVMBuildStore(L->b, rs[i].acc[c], word(L, arr, at, s * stride)), 4);
	LLVMBuildBr(L->b, rd);
	LLVMPositionBuilderAtEnd(L->b, rd);
	return base;
}

static LLVMValueRef ws_ptr(Lower *L, LLVMValueRef idx, LLVMTypeRef t);
static LLVMValueRef load_partial(Lower *L, LLVMValueRef ix);

/* Butterfly shuffles over groups of w lanes of a warp (w a power of two up to 32): every lane of
 * a group ends with the same bits for a sum, max or min, and for welford, whose merge is not
 * symmetric, by taking the group's first lane's result. The online max-sum's rescaled sums can
 * differ between lanes in the last bit (LLVM contracts one side's multiply into an fma). */
static void
red_lanes(Lower *L, Red *rs, int n, int w)
{
	for (int off = w / 2; off >= 1; off /= 2)
		for (int i = 0; i < n; i++) {
			LLVMValueRef o[RED_COMP];
			for (int c = 0; c < rs[i].ncomp; c++)
				o[c] = shfl(L, "llvm.nvvm.shfl.sync.bfly.f32", rs[i].acc[c],
					    ci32(L, off));
			combine(L, &rs[i], rs[i].acc, o, rs[i].acc);
		}
	/* Chan's merge is not symmetric: take the first lane's result so the row agrees */
	LLVMValueRef lead = LLVMBuildAnd(L->b, L->lane32, ci32(L, ~(w - 1)), "");
	for (int i = 0; i < n; i++)
		if (rs[i].kind == K_WELF && w > 1)
			for (int c = 0; c < 3; c++)
				rs[i].acc[c] =
				    shfl(L, "llvm.nvvm.shfl.sync.idx.f32", rs[i].acc[c], lead);
}

/* Whether a row's warp partials are read one a lane and merged by a butterfly over wpr lanes
 * (log2(wpr) merges, a shuffle a component each) instead of in warp order (wpr - 1 merges). The
 * butterfly pays where a merge costs more than a shuffle: Chan's (a reciprocal and nine other
 * operations) and the online max-sum's (two exps); a sum, max or min costs one operation and
 * keeps the order's shorter latency. A count of warps that is not a power of two merges in warp
 * order. Every thread of every warp of the row runs the merges: with 16 warps a row, welford's 15
 * merges were about half a row's instructions (ncu, welford bf16 16384x7168), and the butterfly
 * runs it 0.955x the time. From 8 warps: at 4 it saves one merge for more shuffles, and ran
 * 0.997-1.012x the time (bench/results/h100-2026-11-24-tree.md).
 */
#define TREE_MIN_WARPS 8

static int
tree_partials(const Red *rs, int n, int wpr)
{
	if (wpr < TREE_MIN_WARPS || (wpr & (wpr - 1))) /* a butterfly needs a power of two */
		return 0;
	for (int i = 0; i < n; i++)
		if (rs[i].kind == K_WELF || rs[i].kind == K_MAXSUM)
			return 1;
	return 0;
}

/* The CTA's part of red_cross. */
static void
red_cta(Lower *L, Red *rs, int n)
{
	red_lanes(L, rs, n, L->tpr < 32 ? L->tpr : 32);
	if (L->wpr == 1)
		return;
	int nw = L->c->cfg.num_warps;
	int base = store_partials(L, rs, n, &L->smem_next,
				  LLVMBuildICmp(L->b, LLVMIntEQ, L->lane32, ci32(L, 0), ""),
				  L->smem, L->warp, nw, "smem.wr", "smem.rd");
	barrier(L);
	LLVMValueRef w0 = LLVMBuildMul(L->b, L->grp, ci32(L, L->wpr), "");
	if (!tree_partials(rs, n, L->wpr)) {
		for (int i = 0, s = base; i < n; s += rs[i].ncomp, i++)
			combine_partials(L, &rs[i], L->wpr, warp_partial, &(Slots){w0, s, nw});
		return;
	}
	/* lane l reads warp l % wpr's partial; each group of wpr lanes merges all of them */
	LLVMValueRef at =
	    LLVMBuildAdd(L->b, w0, LLVMBuildAnd(L->b, L->lane32, ci32(L, L->wpr - 1), ""), "");
	for (int i = 0, s = base; i < n; s += rs[i].ncomp, i++)
		for (int c = 0; c < rs[i].ncomp; c++) {
			LLVMValueRef p = warp_partial(L, &(Slots){at, s, nw}, c, 0);
			rs[i].acc[c] = LLVMBuildLoad2(L->b, L->f32, p, "");
			LLVMSetAlignment(rs[i].acc[c], 4);
		}
	red_lanes(L, rs, n, L->wpr);
}

static void
cluster_barrier(Lower *L)
{
	/* arrive has release and wait acquire semantics: the partials stored before are seen */
	intr(L, "llvm.nvvm.barrier.cluster.arrive", NULL, NULL, 0);
	intr(L, "llvm.nvvm.barrier.cluster.wait", NULL, NULL, 0);
}

/* A cluster's CTAs hold a row's segments: each row's lane 0 puts its CTA's partials in the
 * CTA's own slots, and after a cluster barrier every thread reads all the CTAs' slots through
 * distributed shared memory (mapa) in rank order, so every CTA combines the same values in the
 * same order and ends with the same bits. Each reduction has slots of its own, so the next one
 * needs no barrier before it writes. */
static void
cluster_cross(Lower *L, Red *rs, int n)
{
	int mb = L->c->cfg.m_block;
	region_mark(L, R_CLUSTER);
	int base = store_partials(L, rs, n, &L->clu_next,
				  LLVMBuildICmp(L->b, LLVMIntEQ, L->lane, ci64(L, 0), ""), L->clu,
				  L->grp, mb, "clu.wr", "clu.rd");
	cluster_barrier(L);
	for (int i = 0, s = base; i < n; s += rs[i].ncomp, i++)
		combine_partials(L, &rs[i], L->cluster, cta_partial, &(Slots){L->grp, s, mb});
}

/* A cooperative row block's workspace (codegen_launch): two u32 counters a row block (arrived,
 * left), then, from the next 16 bytes, a float a CTA of the row for each partial component of
 * each row. coop_slots: the f32 index of the first of component s's K floats of the thread's row
 * in row block rb; coop_counter: the u32 index of the CTA's row block's counter w (0 arrived, 1
 * left). Each row block has its own, used once a launch: the block place_row placed (under a grid
 * of bands the band's block of the moment, else the CTA's, ctaid / K). */

static LLVMValueRef
coop_slots(Lower *L, LLVMValueRef rb, int s)
{
	int64_t K = L->cluster, nred = L->plan->nred;
	LLVMValueRef cnt = LLVMBuildMul(
	    L->b, LLVMBuildUDiv(L->b, LLVMBuildAdd(L->b, L->M, ci64(L, 1), ""), ci64(L, 2), ""),
	    ci64(L, 4), "");
	LLVMValueRef row =
	    LLVMBuildAdd(L->b, LLVMBuildMul(L->b, rb, ci64(L, L->c->cfg.m_block), ""),
			 LLVMBuildZExt(L->b, L->grp, L->i64, ""), "");
	return LLVMBuildAdd(
	    L->b, cnt,
	    LLVMBuildMul(
		L->b,
		LLVMBuildAdd(L->b, LLVMBuildMul(L->b, row, ci64(L, nred), ""), ci64(L, s), ""),
		ci64(L, K), ""),
	    "");
}

static LLVMValueRef
coop_counter(Lower *L, int w)
{
	LLVMValueRef rb = L->rblock;
	return LLVMBuildAdd(L->b, LLVMBuildMul(L->b, rb, ci64(L, 2), ""), ci64(L, w), "");
}

/* A cooperative row block (coop=1): each row's lane 0 writes its CTA's partials to the
 * workspace, every CTA counts in at the row block's counter and waits for all K (round r of the
 * kernel's exchanges waits for K*r), then the row's first warp reads the K partials, lane l the
 * CTAs l, l + w, ... in order, and combines them over its lanes by butterfly; a row of several
 * warps gets the result through shared memory. Every CTA runs the same order on the same values,
 * so every CTA ends with the same bits. Only one warp a row reads: every warp of every CTA
 * reading the same few lines would queue at one L2 slice. */
static void
coop_cross(Lower *L, Red *rs, int n)
{
	int K = L->cluster, mb = L->c->cfg.m_block, w = L->tpr < 32 ? L->tpr : 32;
	region_mark(L, R_CLUSTER);
	int base = L->clu_next;
	for (int i = 0; i < n; i++)
		L->clu_next += rs[i].ncomp;
	LLVMValueRef rb = L->rblock;
	LLVMBasicBlockRef wr = LLVMAppendBasicBlockInContext(L->cx, L->fn, "coop.wr");
	LLVMBasicBlockRef wait = LLVMAppendBasicBlockInContext(L->cx, L->fn, "coop.wait");
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, L->lane, ci64(L, 0), ""), wr, wait);
	LLVMPositionBuilderAtEnd(L->b, wr);
	for (int i = 0, s = base; i < n; i++)
		for (int c = 0; c < rs[i].ncomp; c++, s++) {
			LLVMValueRef ix = LLVMBuildAdd(L->b, coop_slots(L, rb, s), L->seg, "");
			LLVMSetAlignment(LLVMBuildStore(L->b, rs[i].acc[c], ws_ptr(L, ix, L->f32)),
					 4);
		}
	LLVMBuildBr(L->b, wait);
	LLVMPositionBuilderAtEnd(L->b, wait);
	ws_arrive_wait(L, L->ws, coop_counter(L, 0), ci64(L, (int64_t)K * ++L->coop_rounds),
		       "coop");
	LLVMBasicBlockRef rd = NULL, after = NULL;
	if (L->wpr > 1) {
		rd = LLVMAppendBasicBlockInContext(L->cx, L->fn, "coop.rd");
		after = LLVMAppendBasicBlockInContext(L->cx, L->fn, "coop.bcast");
		LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntULT, L->lane, ci64(L, 32), ""), rd,
				after);
		LLVMPositionBuilderAtEnd(L->b, rd);
	}
	for (int i = 0, s = base; i < n; s += rs[i].ncomp, i++) {
		red_identity(L, &rs[i]);
		LLVMValueRef id[RED_COMP];
		memcpy(id, rs[i].acc, sizeof id);
		for (int j = 0; j * w < K; j++) {
			LLVMValueRef k = LLVMBuildAdd(L->b, L->lane, ci64(L, (int64_t)j * w), "");
			LLVMValueRef in = LLVMBuildICmp(L->b, LLVMIntULT, k, ci64(L, K), "");
			k = LLVMBuildSelect(L->b, in, k, ci64(L, K - 1), "");
			LLVMValueRef v[RED_COMP];
			for (int c = 0; c < rs[i].ncomp; c++)
				v[c] = LLVMBuildSelect(
				    L->b, in,
				    load_partial(
					L, LLVMBuildAdd(L->b, coop_slots(L, rb, s + c), k, "")),
				    id[c], "");
			combine(L, &rs[i], rs[i].acc, v, rs[i].acc);
		}
	}
	red_lanes(L, rs, n, w);
	if (L->wpr == 1)
		return;
	/* the row's lane 0 hands the result to the row's other warps */
	for (int i = 0, s = base; i < n; i++)
		for (int c = 0; c < rs[i].ncomp; c++, s++) {
			LLVMBasicBlockRef st =
			    LLVMAppendBasicBlockInContext(L->cx, L->fn, "coop.st");
			LLVMBasicBlockRef nx =
			    LLVMAppendBasicBlockInContext(L->cx, L->fn, "coop.st.nx");
			LLVMBuildCondBr(
			    L->b, LLVMBuildICmp(L->b, LLVMIntEQ, L->lane, ci64(L, 0), ""), st, nx);
			LLVMPositionBuilderAtEnd(L->b, st);
			LLVMSetAlignment(
			    LLVMBuildStore(L->b, rs[i].acc[c], word(L, L->clu, L->grp, s * mb)), 4);
			LLVMBuildBr(L->b, nx);
			LLVMPositionBuilderAtEnd(L->b, nx);
		}
	LLVMBuildBr(L->b, after);
	LLVMPositionBuilderAtEnd(L->b, after);
	barrier(L);
	for (int i = 0, s = base; i < n; i++)
		for (int c = 0; c < rs[i].ncomp; c++, s++) {
			rs[i].acc[c] =
			    LLVMBuildLoad2(L->b, L->f32, word(L, L->clu, L->grp, s * mb), "");
			LLVMSetAlignment(rs[i].acc[c], 4);
		}
}

void
cluster_done(Lower *L)
{
	if (L->cluster > 1 && L->coop && L->coop_rounds > 0) {
		/* thread 0 has passed the last wait: the last of the K to count out has every CTA
		 * past it and zeroes both counters for the next launch */
		LLVMBasicBlockRef t0 = LLVMAppendBasicBlockInContext(L->cx, L->fn, "coop.out");
		LLVMBasicBlockRef zero = LLVMAppendBasicBlockInContext(L->cx, L->fn, "coop.zero");
		LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(L->cx, L->fn, "coop.left");
		LLVMValueRef tid = LLVMBuildZExt(
		    L->b, intr(L, "llvm.nvvm.read.ptx.sreg.tid.x", NULL, NULL, 0), L->i64, "");
		LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, tid, ci64(L, 0), ""), t0,
				join);
		LLVMPositionBuilderAtEnd(L->b, t0);
		LLVMValueRef arrived = ws_ptr(L, coop_counter(L, 0), L->i32);
		LLVMValueRef left = ws_ptr(L, coop_counter(L, 1), L->i32);
		LLVMValueRef old = LLVMBuildAtomicRMW(L->b, LLVMAtomicRMWBinOpAdd, left, ci32(L, 1),
						      LLVMAtomicOrderingMonotonic, 0);
		LLVMBuildCondBr(L->b,
				LLVMBuildICmp(L->b, LLVMIntEQ, old, ci32(L, L->cluster - 1), ""),
				zero, join);
		LLVMPositionBuilderAtEnd(L->b, zero);
		LLVMSetAlignment(LLVMBuildStore(L->b, ci32(L, 0), arrived), 4);
		LLVMSetAlignment(LLVMBuildStore(L->b, ci32(L, 0), left), 4);
		LLVMBuildBr(L->b, join);
		LLVMPositionBuilderAtEnd(L->b, join);
	} else if (L->cluster > 1 && L->clu_next > 0) {
		cluster_barrier(L);
	}
}

/* ns a CTA naps between reads of a count it waits for: 20 timed as 100 did, and the skip below
 * with it 0.995x the time by geomean at 53 points (bench/results/h100-2026-12-08-exchange.md) */
#define WAIT_NAP_NS 20

/* Thread 0 fences, counts the CTA in at u32 word `word` from base (L->ws, or L->wsc for the
 * colsums' regions), and, unless the count its atomic returns says it is the last in, polls (a
 * nap between reads) until the count reaches want; then it fences again. The barriers before and
 * after hand the CTA's writes to it and its verdict to the CTA. One fence a CTA, not a thread:
 * fences are cumulative. */
void
ws_arrive_wait(Lower *L, LLVMValueRef base, LLVMValueRef word, LLVMValueRef want, const char *what)
{
	char nm[5][32];
	static const char *const part[5] = {"arrive", "spin", "nap", "all", "waited"};
	LLVMBasicBlockRef bb[5];
	for (int i = 0; i < 5; i++) {
		snprintf(nm[i], sizeof nm[i], "%s.%s", what, part[i]);
		bb[i] = LLVMAppendBasicBlockInContext(L->cx, L->fn, nm[i]);
	}
	LLVMBasicBlockRef t0 = bb[0], spin = bb[1], nap = bb[2], all = bb[3], join = bb[4];
	intr(L, "llvm.nvvm.barrier0", NULL, NULL, 0);
	LLVMValueRef tid = LLVMBuildZExt(
	    L->b, intr(L, "llvm.nvvm.read.ptx.sreg.tid.x", NULL, NULL, 0), L->i64, "");
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, tid, ci64(L, 0), ""), t0, join);
	LLVMPositionBuilderAtEnd(L->b, t0);
	intr(L, "llvm.nvvm.membar.gl", NULL, NULL, 0);
	LLVMValueRef p = LLVMBuildGEP2(L->b, L->i32, base, &word, 1, "");
	LLVMValueRef was = LLVMBuildAtomicRMW(L->b, LLVMAtomicRMWBinOpAdd, p, ci32(L, 1),
					      LLVMAtomicOrderingMonotonic, 0);
	/* the count the atomic returns says whether this CTA is the last in: the last goes on
	 * without a read */
	LLVMValueRef in = LLVMBuildAdd(L->b, LLVMBuildZExt(L->b, was, L->i64, ""), ci64(L, 1), "");
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntUGE, in, want, ""), all, spin);
	LLVMPositionBuilderAtEnd(L->b, spin);
	LLVMValueRef n = LLVMBuildLoad2(L->b, L->i32, p, "");
	LLVMSetVolatile(n, 1);
	LLVMSetAlignment(n, 4);
	LLVMBuildCondBr(
	    L->b, LLVMBuildICmp(L->b, LLVMIntUGE, LLVMBuildZExt(L->b, n, L->i64, ""), want, ""),
	    all, nap);
	LLVMPositionBuilderAtEnd(L->b, nap);
	LLVMValueRef ns = ci32(L, WAIT_NAP_NS);
	intr(L, "llvm.nvvm.nanosleep", NULL, &ns, 1);
	LLVMBuildBr(L->b, spin);
	LLVMPositionBuilderAtEnd(L->b, all);
	intr(L, "llvm.nvvm.membar.gl", NULL, NULL, 0);
	LLVMBuildBr(L->b, join);
	LLVMPositionBuilderAtEnd(L->b, join);
	intr(L, "llvm.nvvm.barrier0", NULL, NULL, 0);
}

/* Reduces the partials of a row's threads: butterfly shuffles within the warp (width tpr when
 * the row has fewer than 32 threads), then, when the row spans several warps, shared memory read
 * back in warp order, then, under a cluster, the other CTAs' partials (cluster_cross). Every
 * thread of the row ends with the same value. */
void
red_cross(Lower *L, Red *rs, int n)
{
	if (n == 0)
		return;
	region_mark(L, R_CROSS);
	red_cta(L, rs, n);
	if (L->cluster > 1 && L->coop)
		coop_cross(L, rs, n);
	else if (L->cluster > 1)
		cluster_cross(L, rs, n);
	for (int i = 0; i < n; i++)
		for (int c = 0; c < rs[i].ncomp; c++)
			regions_after(L, rs[i].acc[c]);
}

/* Welford's second pass over a held row (K_WELF2, whose partial is now the row's sum): the mean,
 * each thread's squared distances to it over its chunks, their sum over the row (in the region of
 * the first, no mark of its own), and the three results as welford's. */
void
red_cross_held(Lower *L, Red *rs, int n, const Chunk *chs, int nch)
{
	red_cross(L, rs, n);
	Red *m2 = arena_alloc(L->a, sizeof(Red) * (size_t)(n + 1));
	int *w = arena_alloc(L->a, sizeof(int) * (size_t)(n + 1)), nw = 0;
	for (int i = 0; i < n; i++) {
		if (rs[i].kind != K_WELF2)
			continue;
		const Instr *in = &L->k->ins[rs[i].ins];
		LLVMValueRef pos = LLVMBuildFCmp(L->b, LLVMRealOGT, L->Nf, cf(L, 0), "");
		LLVMValueRef mean = ffmul(L, rs[i].acc[0],
					  LLVMBuildSelect(L->b, pos, frcp(L, L->Nf), cf(L, 0), ""));
		LLVMValueRef s = cf(L, 0);
		for (int c = 0; c < nch; c++) {
			LLVMValueRef *x = chs[c].el[in->args[0].idx];
			for (int j = 0; j < chs[c].nvec; j++) {
				LLVMValueRef v = cf(L, 0);
				for (int e = 0; e < chs[c].vec; e++) {
					LLVMValueRef dl = ffsub(L, x[j * chs[c].vec + e], mean);
					v = ffadd(L, v, ffmul(L, dl, dl));
				}
				s = ffadd(L, s,
					  LLVMBuildSelect(L->b, chs[c].valid[j], v, cf(L, 0), ""));
			}
		}
		rs[i].acc[1] = mean;
		m2[nw] = (Red){.ins = rs[i].ins, .kind = K_SUM, .ncomp = 1, .acc = {s}};
		w[nw++] = i;
	}
	if (nw == 0)
		return;
	red_cta(L, m2, nw); /* the whole cross: welford_two_pass keeps the row in one CTA */
	for (int k = 0; k < nw; k++) {
		Red *r = &rs[w[k]];
		r->kind = K_WELF;
		r->ncomp = 3;
		r->acc[0] = L->Nf;
		r->acc[2] = m2[k].acc[0];
	}
}

/* The row values of finished reductions. */
void
red_finish(Lower *L, Red *rs, int n)
{
	for (int i = 0; i < n; i++) {
		const Instr *in = &L->k->ins[rs[i].ins];
		for (int c = 0; c < in->nres; c++)
			if (in->res[c] >= 0)
				L->uni[in->res[c]] = rs[i].acc[c];
		/* a row whose every element is -inf: its sums are exp(-inf - -inf) added, NaN, as
		 * the interpreter and a persistent row give them; red_local's terms took 0 there */
		LLVMValueRef none =
		    rs[i].kind == K_MAXSUM
			? LLVMBuildFCmp(L->b, LLVMRealOEQ, rs[i].acc[0], cf(L, -INFINITY), "")
			: NULL;
		for (int k = 0; k < rs[i].nsums; k++)
			if (L->k->ins[rs[i].sums[k]].res[0] >= 0)
				L->uni[L->k->ins[rs[i].sums[k]].res[0]] =
				    none ? LLVMBuildSelect(L->b, none, cf(L, NAN), rs[i].acc[1 + k],
							   "")
					 : rs[i].acc[1 + k];
	}
}

/* The column pass's row values (colpass_rows): Plan.rowval's floats of row `row` in the
 * workspace region row_values, row-major (through L->wsc, as the colsums' regions). */
static LLVMValueRef
rowval_at(Lower *L, LLVMValueRef row, int r)
{
	Launch l;
	codegen_launch(L->k, L->c, &l);
	LLVMValueRef base = ci64(L, codegen_ws_offset(&l, "row_values", L->c->M) / 4);
	LLVMValueRef ix =
	    LLVMBuildAdd(L->b, base,
			 LLVMBuildAdd(L->b, LLVMBuildMul(L->b, row, ci64(L, L->plan->nrowval), ""),
				      ci64(L, r), ""),
			 "");
	return LLVMBuildGEP2(L->b, L->f32, L->wsc, &ix, 1, "");
}

/* Under colpass_rows, where the row's [M] outputs are stored (store_rows: one thread a real
 * row), the row values the column pass reads back. */
void
rowvals_store(Lower *L)
{
	const Plan *p = L->plan;
	if (!colpass_rows(p->ncolsum, p->colsum_alone, &L->c->cfg))
		return;
	for (int r = 0; r < p->nrowval; r++)
		LLVMSetAlignment(
		    LLVMBuildStore(L->b, L->uni[p->rowval[r]], rowval_at(L, L->row, r)), 4);
}

/* The row values of the row place_row placed (rows past M read row M-1's: L->rowc), placed in
 * L->uni, where the column pass lowers the [M] values made from them. Plain loads, not the
 * non-coherent ones of the inputs: the kernel wrote them. */
void
rowvals_load(Lower *L)
{
	const Plan *p = L->plan;
	if (!colpass_rows(p->ncolsum, p->colsum_alone, &L->c->cfg))
		return;
	for (int r = 0; r < p->nrowval; r++) {
		LLVMValueRef v = LLVMBuildLoad2(L->b, L->f32, rowval_at(L, L->rowc, r), "");
		LLVMSetAlignment(v, 4);
		L->uni[p->rowval[r]] = v;
	}
}

/* Stores of [M] outputs, and the column pass's row values: one thread per row, only for real
 * rows. */
void
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
	rowvals_store(L);
}

void
if_lane0_row(Lower *L)
{
	LLVMValueRef l0 = LLVMBuildICmp(L->b, LLVMIntEQ, L->lane, ci64(L, 0), "");
	if (L->cluster > 1)
		l0 = LLVMBuildAnd(L->b, l0, LLVMBuildICmp(L->b, LLVMIntEQ, L->seg, ci64(L, 0), ""),
				  "");
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

RedPhi *
red_phis(Lower *L, Red *rs, int n, LLVMBasicBlockRef pre)
{
	RedPhi *phi = arena_alloc(L->a, sizeof(RedPhi) * (n + 1));
	for (int i = 0; i < n; i++)
		for (int c = 0; c < rs[i].ncomp; c++) {
			phi[i][c] = LLVMBuildPhi(L->b, L->f32, "");
			LLVMAddIncoming(phi[i][c], &rs[i].acc[c], &pre, 1);
			rs[i].acc[c] = phi[i][c];
		}
	return phi;
}

void
red_phis_close(Red *rs, int n, RedPhi *phi, LLVMBasicBlockRef end)
{
	for (int i = 0; i < n; i++)
		for (int c = 0; c < rs[i].ncomp; c++) {
			LLVMAddIncoming(phi[i][c], &rs[i].acc[c], &end, 1);
			rs[i].acc[c] = phi[i][c];
		}
}

/* A partial the segments of a row left in the workspace: volatile, written by other CTAs. */
static LLVMValueRef
load_partial(Lower *L, LLVMValueRef ix)
{
	LLVMValueRef v = LLVMBuildLoad2(L->b, L->f32, ws_ptr(L, ix, L->f32), "");
	LLVMSetVolatile(v, 1);
	LLVMSetAlignment(v, 4);
	return v;
}

/* Past SPLIT_UNROLL segments the last CTA combines the partials in a loop, in the same order:
 * unrolled, 65536 segments of a welford are 200k loads, which LLVM takes a minute and gigabytes
 * to optimise. */
static void
combine_loop(Lower *L, Red *rs, int n, LLVMValueRef rbase, int nv)
{
	for (int i = 0, s = 0; i < n; s += rs[i].ncomp, i++)
		for (int c = 0; c < rs[i].ncomp; c++)
			rs[i].acc[c] =
			    load_partial(L, LLVMBuildAdd(L->b, rbase, ci64(L, s + c), ""));
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b);
	LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(L->cx, L->fn, "split.comb");
	LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(L->cx, L->fn, "split.comb.body");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(L->cx, L->fn, "split.comb.done");
	LLVMBuildBr(L->b, head);
	LLVMPositionBuilderAtEnd(L->b, head);
	LLVMValueRef g = LLVMBuildPhi(L->b, L->i64, "");
	LLVMValueRef one = ci64(L, 1);
	LLVMAddIncoming(g, &one, &pre, 1);
	RedPhi *phi = red_phis(L, rs, n, pre);
	LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, g, ci64(L, L->split), ""), body,
			done);
	LLVMPositionBuilderAtEnd(L->b, body);
	LLVMValueRef base = LLVMBuildAdd(L->b, rbase, LLVMBuildMul(L->b, g, ci64(L, nv), ""), "");
	for (int i = 0, s = 0; i < n; s += rs[i].ncomp, i++) {
		LLVMValueRef v[RED_COMP];
		for (int c = 0; c < rs[i].ncomp; c++)
			v[c] = load_partial(L, LLVMBuildAdd(L->b, base, ci64(L, s + c), ""));
		combine(L, &rs[i], rs[i].acc, v, rs[i].acc);
	}
	LLVMValueRef g2 = LLVMBuildAdd(L->b, g, one, "");
	LLVMBasicBlockRef end = LLVMGetInsertBlock(L->b);
	LLVMBuildBr(L->b, head);
	LLVMAddIncoming(g, &g2, &end, 1);
	red_phis_close(rs, n, phi, end);
	LLVMPositionBuilderAtEnd(L->b, done);
}

/* The last CTA's merge of a row's split partials by its first warp (split_finish): lane l merges
 * segments l, l + 32, l + 64, ... in that order, SPLIT_LANE_LOADS of them a step (loads in flight
 * together), and a butterfly over the warp merges the lanes'; lane 0 ends with the row's result.
 * The order is fixed, so the result does not depend on which CTA was last. */
static void
combine_warp(Lower *L, Red *rs, int n, LLVMValueRef rbase, int nv)
{
	int split = L->split, J = (split + 31) / 32,
	    U = J < SPLIT_LANE_LOADS ? J : SPLIT_LANE_LOADS;
	int steps = (J + U - 1) / U;
	LLVMValueRef(*id)[RED_COMP] = arena_alloc(L->a, sizeof *id * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		red_identity(L, &rs[i]);
		memcpy(id[i], rs[i].acc, sizeof id[i]);
	}
	LLVMValueRef lane = LLVMBuildZExt(L->b, L->lane32, L->i64, "");
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b), body = pre;
	LLVMValueRef g0 = lane;
	RedPhi *phi = NULL;
	if (steps > 1) {
		body = LLVMAppendBasicBlockInContext(L->cx, L->fn, "split.warp.body");
		LLVMBuildBr(L->b, body);
		LLVMPositionBuilderAtEnd(L->b, body);
		g0 = LLVMBuildPhi(L->b, L->i64, "");
		LLVMAddIncoming(g0, &lane, &pre, 1);
		phi = red_phis(L, rs, n, pre);
	}
	for (int u = 0; u < U; u++) {
		LLVMValueRef g = LLVMBuildAdd(L->b, g0, ci64(L, 32LL * u), "");
		LLVMValueRef in = LLVMBuildICmp(L->b, LLVMIntULT, g, ci64(L, split), "");
		g = LLVMBuildSelect(L->b, in, g, ci64(L, split - 1), "");
		LLVMValueRef base =
		    LLVMBuildAdd(L->b, rbase, LLVMBuildMul(L->b, g, ci64(L, nv), ""), "");
		for (int i = 0, s = 0; i < n; s += rs[i].ncomp, i++) {
			LLVMValueRef v[RED_COMP];
			for (int c = 0; c < rs[i].ncomp; c++)
				v[c] = LLVMBuildSelect(
				    L->b, in,
				    load_partial(L, LLVMBuildAdd(L->b, base, ci64(L, s + c), "")),
				    id[i][c], "");
			combine(L, &rs[i], rs[i].acc, v, rs[i].acc);
		}
	}
	if (steps > 1) { /* every lane the same steps: the warp runs the loop converged */
		LLVMValueRef g2 = LLVMBuildAdd(L->b, g0, ci64(L, 32LL * U), "");
		LLVMBasicBlockRef end = LLVMGetInsertBlock(L->b);
		LLVMBasicBlockRef done =
		    LLVMAppendBasicBlockInContext(L->cx, L->fn, "split.warp.done");
		LLVMAddIncoming(g0, &g2, &end, 1);
		/* the loop leaves from its end: the merges' values there, not the phis' */
		RedPhi *out = arena_alloc(L->a, sizeof(RedPhi) * (size_t)(n + 1));
		for (int i = 0; i < n; i++)
			memcpy(out[i], rs[i].acc, sizeof out[i]);
		red_phis_close(rs, n, phi, end);
		for (int i = 0; i < n; i++)
			memcpy(rs[i].acc, out[i], sizeof out[i]);
		LLVMValueRef more =
		    LLVMBuildICmp(L->b, LLVMIntULT, LLVMBuildSub(L->b, g2, lane, ""),
				  ci64(L, 32LL * U * steps), "");
		LLVMBuildCondBr(L->b, more, body, done);
		LLVMPositionBuilderAtEnd(L->b, done);
	}
	red_lanes(L, rs, n, 32);
}

/* Split rows: each CTA's partials go to the workspace; the CTA that finishes a row last (an
 * atomic counter per row) merges all of them in a fixed order, so the result does not depend on
 * which CTA was last, writes the row's outputs and zeroes the counter for the next launch. Where
 * a row spans whole warps its first warp merges them (combine_warp); else its lane 0 alone, in
 * segment order. */
void
split_finish(Lower *L, Red *rs, int n)
{
	int nv = 0;
	for (int i = 0; i < n; i++)
		nv += rs[i].ncomp;
	int split = L->split, warp = L->tpr >= 32;
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
	LLVMValueRef cp = ws_ptr(L, L->row, L->i32);
	LLVMValueRef l0 = LLVMBuildICmp(L->b, LLVMIntEQ, L->lane, ci64(L, 0), "");
	L->end = LLVMAppendBasicBlockInContext(L->cx, L->fn, "end");
	LLVMBasicBlockRef tick = LLVMAppendBasicBlockInContext(L->cx, L->fn, "split.tick");
	LLVMBasicBlockRef w0 = NULL, join = NULL;
	if (warp) { /* the row's first warp (its lanes are one row's, real or not together) */
		w0 = LLVMAppendBasicBlockInContext(L->cx, L->fn, "split.warp");
		join = LLVMAppendBasicBlockInContext(L->cx, L->fn, "split.join");
		LLVMValueRef in = LLVMBuildICmp(L->b, LLVMIntULT, L->lane, ci64(L, 32), "");
		LLVMBuildCondBr(L->b, LLVMBuildAnd(L->b, in, L->rowok, ""), w0, L->end);
		LLVMPositionBuilderAtEnd(L->b, w0);
		LLVMBuildCondBr(L->b, l0, tick, join);
	} else {
		LLVMBuildCondBr(L->b, LLVMBuildAnd(L->b, l0, L->rowok, ""), tick, L->end);
	}
	LLVMPositionBuilderAtEnd(L->b, tick);
	for (int i = 0, s = 0; i < n; i++)
		for (int c = 0; c < rs[i].ncomp; c++, s++) {
			LLVMValueRef p =
			    ws_ptr(L, LLVMBuildAdd(L->b, part0, ci64(L, s), ""), L->f32);
			LLVMSetAlignment(LLVMBuildStore(L->b, rs[i].acc[c], p), 4);
		}
	intr(L, "llvm.nvvm.membar.gl", NULL, NULL, 0);
	LLVMValueRef old = LLVMBuildAtomicRMW(L->b, LLVMAtomicRMWBinOpAdd, cp, ci32(L, 1),
					      LLVMAtomicOrderingMonotonic, 0);
	LLVMValueRef last = LLVMBuildICmp(L->b, LLVMIntEQ, old, ci32(L, split - 1), "");
	if (warp) { /* lane 0's answer to the warp, through a shuffle of an f32 */
		LLVMValueRef yes = LLVMBuildSelect(L->b, last, cf(L, 1), cf(L, 0), "");
		LLVMValueRef no = cf(L, 0);
		LLVMBasicBlockRef from = LLVMGetInsertBlock(L->b);
		LLVMBuildBr(L->b, join);
		LLVMPositionBuilderAtEnd(L->b, join);
		LLVMValueRef f = LLVMBuildPhi(L->b, L->f32, "");
		LLVMAddIncoming(f, &yes, &from, 1);
		LLVMAddIncoming(f, &no, &w0, 1);
		f = shfl(L, "llvm.nvvm.shfl.sync.idx.f32", f, ci32(L, 0));
		last = LLVMBuildFCmp(L->b, LLVMRealOEQ, f, cf(L, 1), "");
	}
	LLVMBasicBlockRef merge = LLVMAppendBasicBlockInContext(L->cx, L->fn, "split.last");
	LLVMBuildCondBr(L->b, last, merge, L->end);
	LLVMPositionBuilderAtEnd(L->b, merge);
	intr(L, "llvm.nvvm.membar.gl", NULL, NULL, 0);
	LLVMValueRef rbase = LLVMBuildAdd(
	    L->b, cnt_words, LLVMBuildMul(L->b, L->row, ci64(L, (long long)split * nv), ""), "");
	if (warp) {
		combine_warp(L, rs, n, rbase, nv);
		LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(L->cx, L->fn, "split.out");
		LLVMBuildCondBr(L->b, l0, out, L->end);
		LLVMPositionBuilderAtEnd(L->b, out);
	} else if (split <= SPLIT_UNROLL)
		for (int g = 0; g < split; g++)
			for (int i = 0, s = 0; i < n; s += rs[i].ncomp, i++) {
				LLVMValueRef v[RED_COMP];
				for (int c = 0; c < rs[i].ncomp; c++) {
					LLVMValueRef ix = LLVMBuildAdd(
					    L->b, rbase, ci64(L, (long long)g * nv + s + c), "");
					v[c] = load_partial(L, ix);
				}
				if (g == 0)
					memcpy(rs[i].acc, v, sizeof v);
				else
					combine(L, &rs[i], rs[i].acc, v, rs[i].acc);
			}
	else
		combine_loop(L, rs, n, rbase, nv);
	LLVMSetAlignment(LLVMBuildStore(L->b, ci32(L, 0), cp), 4);
	red_finish(L, rs, n);
	lower_ready_uniform(L);
	store_rows(L);
}
