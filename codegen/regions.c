/* --regions: timer stamps at the boundaries of a kernel's phases, in sampled row blocks. */
#include <stdio.h>
#include <string.h>

#include "codegen/lower.h"

/* The lowering's regions state. Regions are listed in the order the lowering marks them, which
 * is the order a CTA runs them; the buffer is u64 [slot][2 + n] (codegen.h), and its per-slot
 * stride is known only when the last region closes, so it is read from a constant global whose
 * initializer is set then (O3 folds the load). */
struct LowerRegions {
	LLVMValueRef buf;    /* the kernel's last parameter */
	LLVMValueRef slot;   /* i64: the first word of the row block's slot (regions_start) */
	LLVMValueRef stride; /* the constant global holding n + 2 */
	LLVMValueRef tid0;   /* i1: thread 0, which stamps for the CTA and names the slot's CTA */
	LLVMValueRef last;   /* grid: i64 stack slot, the first word of the CTA's last block's slot
				when that block was stamped, else -1 */
	LLVMValueRef iter;   /* grid: i64 stack slot, the blocks the CTA walked so far */
	int open;	     /* the open region, or -1 */
	int open_kind;
	int persistent; /* the first region was a persistent body */
	int ncombine;	/* persistent: combines marked so far */
	int grid;	/* a persistent grid: a `between` region ends at the loop's head */
	int tail;	/* the regions after the grid's blocks: 1 (colsum or colpass), 3 with the
			   grid's wait (colsum, colsum.wait, colsum.slice, or colpass.rows,
			   colpass.wait, colpass), else 0 */
	int every;	/* regions_every */
	Regions list;
	LLVMValueRef after[8]; /* what the next stamp waits for (regions_after) */
	int nafter;
};

int
regions_every(const Compile *c)
{
	if (c->regions_every > 0)
		return c->regions_every;
	int64_t rb = (c->M + c->cfg.m_block - 1) / c->cfg.m_block;
	int64_t e = rb * config_segments(&c->cfg) / REGIONS_SAMPLES;
	return e < 1 ? 1 : e > REGIONS_EVERY_MAX ? REGIONS_EVERY_MAX : (int)e;
}

int
regions_slot_stamped(int every, int64_t s, int64_t grid, int segments, int64_t blocks)
{
	if (grid > 0)
		return (s / grid + s % grid / segments) % every == 0;
	return (s / segments) % every == 0 || s / segments == blocks - 1;
}

LLVMTypeRef *
regions_param_type(Lower *L, LLVMTypeRef *pt, int *np)
{
	if (!L->c->regions)
		return pt;
	LLVMTypeRef *more = arena_alloc(L->a, sizeof(LLVMTypeRef) * (size_t)(*np + 1));
	memcpy(more, pt, sizeof(LLVMTypeRef) * (size_t)*np);
	more[(*np)++] = L->ptr1;
	return more;
}

/* A stack slot of type t in the entry block, where SROA promotes it to registers. */
static LLVMValueRef
entry_slot(Lower *L, LLVMTypeRef t)
{
	LLVMBuilderRef b = LLVMCreateBuilderInContext(L->cx);
	LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(L->fn);
	LLVMValueRef first = LLVMGetFirstInstruction(entry);
	if (first)
		LLVMPositionBuilderBefore(b, first);
	else
		LLVMPositionBuilderAtEnd(b, entry);
	LLVMValueRef v = LLVMBuildAlloca(b, t, "");
	LLVMDisposeBuilder(b);
	return v;
}

/* The regions after a grid's blocks (LowerRegions.tail; R->grid set): the column pass, which waits
 * for the whole grid where it reads row values (rowvals_wait), or the colsums' combine, which waits
 * for it unless one slot holds the sums (colsum_finish). */
static int
regions_tail_count(const Lower *L, const LowerRegions *R)
{
	const Config *g = &L->c->cfg;
	const Plan *p = L->k->plan;
	if (!R->grid || !p->ncolsum)
		return 0;
	if (colsum_column(p->ncolsum, g))
		return colpass_rows(p->ncolsum, p->colsum_alone, g) ? 3 : 1;
	return colsum_one_slot(p->ncolsum, p->colsum_alone, g, L->c->N) ? 1 : 3;
}

void
regions_begin(Lower *L)
{
	if (!L->c->regions)
		return;
	LowerRegions *R = arena_alloc(L->a, sizeof *R);
	memset(R, 0, sizeof *R);
	R->open = -1;
	R->list.group = L->nseg;
	/* the whole kernel in the column pass walks no row blocks: a slot a CTA, as without a grid
	 */
	R->grid = L->c->cfg.grid > 0 && !colpass_whole(L->k->plan->colsum_whole, &L->c->cfg);
	R->tail = regions_tail_count(L, R);
	R->every = regions_every(L->c);
	R->buf = LLVMGetParam(L->fn, (unsigned)L->np - 1);
	LLVMSetValueName2(R->buf, "regions", 7);
	unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
	LLVMAddAttributeAtIndex(L->fn, (unsigned)L->np, LLVMCreateEnumAttribute(L->cx, noalias, 0));
	R->stride = LLVMAddGlobal(L->mod, L->i64, "rkc.regions.stride");
	LLVMSetLinkage(R->stride, LLVMInternalLinkage);
	LLVMSetGlobalConstant(R->stride, 1);
	LLVMValueRef tid = intr(L, "llvm.nvvm.read.ptx.sreg.tid.x", NULL, NULL, 0);
	R->tid0 = LLVMBuildICmp(L->b, LLVMIntEQ, tid, ci32(L, 0), "");
	if (R->grid) {
		R->last = entry_slot(L, L->i64);
		LLVMBuildStore(L->b, ci64(L, -1), R->last);
		R->iter = entry_slot(L, L->i64);
		LLVMBuildStore(L->b, ci64(L, 0), R->iter);
	}
	L->rg = R;
}

/* The open region's name and kind into the list: its slot. */
static int
add_region(Lower *L, LowerRegions *R, int kind)
{
	if (R->list.n == MAX_REGIONS) {
		if (!L->err)
			diag(L->d, "--regions: a kernel has at most %d regions", MAX_REGIONS);
		L->err = 1;
		return R->list.n - 1;
	}
	Region *r = &R->list.r[R->list.n];
	int pass = L->pass;
	switch (kind) {
	case R_FILL:
		snprintf(r->name, sizeof r->name, "fill");
		break;
	case R_LOOP:
		if (pass < L->plan->nreduce)
			snprintf(r->name, sizeof r->name, "pass%d.loop", pass);
		else
			snprintf(r->name, sizeof r->name, "apply");
		break;
	case R_CROSS:
		if (R->persistent)
			snprintf(r->name, sizeof r->name, "combine%d", R->ncombine++);
		else
			snprintf(r->name, sizeof r->name, "pass%d.cross", pass);
		break;
	case R_CLUSTER:
		if (R->persistent)
			snprintf(r->name, sizeof r->name, "combine%d.cluster", R->ncombine - 1);
		else
			snprintf(r->name, sizeof r->name, "pass%d.cluster", pass);
		r->wait = WAIT_GROUP;
		break;
	case R_BODY:
		if (R->list.n == 0)
			snprintf(r->name, sizeof r->name, "load");
		else
			snprintf(r->name, sizeof r->name, "body%d", R->ncombine);
		break;
	case R_ROWS:
		snprintf(r->name, sizeof r->name, "%s", L->split > 1 ? "split" : "rows");
		r->wait = L->split > 1 ? WAIT_GROUP : WAIT_NONE;
		break;
	case R_BETWEEN:
		snprintf(r->name, sizeof r->name, "between");
		break;
	case R_COLPASS:
		snprintf(r->name, sizeof r->name, "colpass");
		break;
	default: { /* R_END + i: the i-th of the tail's regions, after the grid's blocks */
		static const char *const names[2][3] = {
		    {"colsum", "colsum.wait", "colsum.slice"},
		    {"colpass.rows", "colpass.wait", "colpass"}};
		int cols = L->csum_cols != 0, i = R->tail == 1 ? 2 * cols : kind - R_END;
		snprintf(r->name, sizeof r->name, "%s", names[cols][i]);
		r->wait = R->tail == 3 && i == 1 ? WAIT_GRID : WAIT_NONE;
		break;
	}
	}
	return R->list.n++;
}

/* The boundary at word w of the buffer: the thread for which who holds (thread 0: one red a
 * boundary a CTA, where one a warp cost more than the rest of the stamp, docs/regions.md "A
 * boundary") reads %globaltimer when its warp gets there and writes it with a max (no result, so
 * nothing waits on it). No barrier: the warps go on as they would without the stamps.
 * On the GPU it is one predicated PTX statement, not a branch: a branch around it split the block,
 * and LLVM sinks no load into a block of two predecessors, so the loads a boundary separated from
 * their use (a combine's partials, read by every thread where only lane 0 uses them) stayed live
 * across it and spilled (docs/regions.md, "A boundary"). Its call touches only memory LLVM cannot
 * see, so LLVM may move loads, stores and arithmetic across it but keeps it in order with
 * barriers and the other stamps; the values regions_after names are its operands, so the
 * arithmetic that makes them stays before it. The timer read does hold ptxas's schedule: it moves
 * no load across one, which is why a block that is not sampled runs code without them. ptxas
 * reads the timer whatever the predicate, so the register it lands in is zeroed first: a
 * predicated read into a register with no value kept each stamp's pair live across the kernel.
 * The emulator keeps the branch and an atomic max (its globaltimer is a host function). */
static void
stamp_word(Lower *L, LowerRegions *R, LLVMValueRef w, LLVMValueRef who)
{
	LLVMValueRef p = LLVMBuildGEP2(L->b, L->i64, R->buf, &w, 1, "");
	if (L->host) {
		R->nafter = 0;
		LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(L->cx, L->fn, "region.stamp");
		LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(L->cx, L->fn, "region.next");
		LLVMBuildCondBr(L->b, who, yes, cont);
		LLVMPositionBuilderAtEnd(L->b, yes);
		LLVMValueRef t = intr(L, "llvm.nvvm.read.ptx.sreg.globaltimer", NULL, NULL, 0);
		LLVMBuildAtomicRMW(L->b, LLVMAtomicRMWBinOpUMax, p, t, LLVMAtomicOrderingMonotonic,
				   0);
		LLVMBuildBr(L->b, cont);
		LLVMPositionBuilderAtEnd(L->b, cont);
		return;
	}
	static const char text[] =
	    "{ .reg .pred p; .reg .u64 t; setp.ne.b32 p, $1, 0; "
	    "mov.u64 t, 0; @p mov.u64 t, %globaltimer; @p red.global.max.u64 [$0], t; }";
	LLVMTypeRef at[2 + 8] = {LLVMTypeOf(p), L->i32};
	LLVMValueRef args[2 + 8] = {p, LLVMBuildZExt(L->b, who, L->i32, "")};
	char cons[4 + 2 * 8] = "l,r"; /* "l,r" and ",c" an operand, and the NUL */
	int na = 2;
	for (int i = 0; i < R->nafter; i++) {
		LLVMTypeRef t = LLVMTypeOf(R->after[i]);
		LLVMTypeKind tk = LLVMGetTypeKind(t);
		int w = tk == LLVMIntegerTypeKind ? (int)LLVMGetIntTypeWidth(t) : 0;
		char c = tk == LLVMFloatTypeKind ? 'f' : tk == LLVMDoubleTypeKind ? 'd' : 0;
		c = w == 32 ? 'r' : w == 64 ? 'l' : c;
		if (!c)
			continue;
		cons[2 * na - 1] = ',';
		cons[2 * na] = c;
		cons[2 * na + 1] = 0;
		at[na] = t;
		args[na++] = R->after[i];
	}
	R->nafter = 0;
	LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(L->cx), at, (unsigned)na, 0);
	LLVMValueRef fn = LLVMGetInlineAsm(ft, text, sizeof text - 1, cons, strlen(cons), 1, 0,
					   LLVMInlineAsmDialectATT, 0);
	LLVMValueRef call = LLVMBuildCall2(L->b, ft, fn, args, (unsigned)na, "");
	/* memory(inaccessiblemem: readwrite): LLVM 19's MemoryEffects, two bits (mod, ref) a
	 * location, argmem at bit 0, inaccessible memory at bit 2, other memory at bit 4 */
	unsigned mem = LLVMGetEnumAttributeKindForName("memory", 6);
	LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
				 LLVMCreateEnumAttribute(L->cx, mem, 3u << 2));
}

/* Boundary b of the open slot (word 1 + b). */
static void
stamp(Lower *L, LowerRegions *R, int b)
{
	stamp_word(L, R, LLVMBuildAdd(L->b, R->slot, ci64(L, 1 + b), ""), R->tid0);
}

/* Whether block unit (the sampling rule's number, regions_slot_stamped) is stamped: an i1. */
static LLVMValueRef
unit_sampled(Lower *L, LowerRegions *R, LLVMValueRef unit)
{
	return LLVMBuildICmp(L->b, LLVMIntEQ, LLVMBuildURem(L->b, unit, ci64(L, R->every), ""),
			     ci64(L, 0), "");
}

/* Word back words before the end of the slot of the CTA's last block, for thread 0 when that block
 * was stamped (carried round the loop: computing it from the block would take a division by
 * gridDim a block, which costs more than the two registers). The slot's width is known only once
 * its regions are closed (stride). */
static void
stamp_last(Lower *L, LowerRegions *R, int back)
{
	LLVMValueRef last = LLVMBuildLoad2(L->b, L->i64, R->last, "");
	LLVMValueRef ran = LLVMBuildICmp(L->b, LLVMIntSGE, last, ci64(L, 0), "");
	LLVMValueRef end =
	    LLVMBuildAdd(L->b, last, LLVMBuildLoad2(L->b, L->i64, R->stride, ""), "");
	stamp_word(L, R, LLVMBuildSub(L->b, end, ci64(L, back), ""),
		   LLVMBuildAnd(L->b, R->tid0, ran, ""));
}

LLVMValueRef
regions_sampled(Lower *L, LLVMValueRef rb)
{
	LowerRegions *R = L->rg;
	if (!R || R->every == 1)
		return NULL;
	if (R->grid) {
		LLVMValueRef i = LLVMBuildLoad2(L->b, L->i64, R->iter, "");
		LLVMBuildStore(L->b, LLVMBuildAdd(L->b, i, ci64(L, 1), ""), R->iter);
		return unit_sampled(L, R, LLVMBuildAdd(L->b, i, L->band, ""));
	}
	/* and the last row block */
	LLVMValueRef last = LLVMBuildSub(L->b, row_blocks(L), ci64(L, 1), "");
	return LLVMBuildOr(L->b, unit_sampled(L, R, rb),
			   LLVMBuildICmp(L->b, LLVMIntEQ, rb, last, ""), "");
}

/* A branch on cond, the same in every thread of the CTA, around the stamps built until
 * guard_end: at a grid's loop head, where no load waits to be sunk below them (A boundary, "Why
 * no branch"), the blocks that are not stamped then skip the stamps' timer reads, which ptxas
 * issues whatever their predicate. */
static LLVMBasicBlockRef
guard_begin(Lower *L, LLVMValueRef cond)
{
	LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(L->cx, L->fn, "region.guard");
	LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(L->cx, L->fn, "region.guarded");
	LLVMBuildCondBr(L->b, cond, yes, cont);
	LLVMPositionBuilderAtEnd(L->b, yes);
	return cont;
}

static void
guard_end(Lower *L, LLVMBasicBlockRef cont)
{
	LLVMBuildBr(L->b, cont);
	LLVMPositionBuilderAtEnd(L->b, cont);
}

void
regions_start(Lower *L, LLVMValueRef slot, LLVMValueRef sampled)
{
	LowerRegions *R = L->rg;
	if (!R)
		return;
	R->slot = LLVMBuildMul(L->b, slot, LLVMBuildLoad2(L->b, L->i64, R->stride, ""), "");
	LLVMBasicBlockRef cont = sampled ? guard_begin(L, sampled) : NULL;
	stamp_word(L, R, LLVMBuildAdd(L->b, R->slot, ci64(L, 1), ""), R->tid0);
	if (cont)
		guard_end(L, cont);
}

void
regions_head(Lower *L)
{
	LowerRegions *R = L->rg;
	if (!R || !R->grid)
		return;
	/* the `between` region's end (word n + 1 - tail of the slot) and the tail regions' (the
	 * words after it), when the CTA's last block was stamped: zero long unless the loop exits,
	 * when regions_tail_wait and regions_tail move them (a max) */
	LLVMValueRef last = LLVMBuildLoad2(L->b, L->i64, R->last, "");
	LLVMBasicBlockRef cont =
	    guard_begin(L, LLVMBuildICmp(L->b, LLVMIntSGE, last, ci64(L, 0), ""));
	for (int back = 1 + R->tail; back >= 1; back--)
		stamp_last(L, R, back);
	guard_end(L, cont);
}

LowerRegions *
regions_pause(Lower *L)
{
	LowerRegions *R = L->rg;
	if (R && R->grid)
		LLVMBuildStore(L->b, ci64(L, -1), R->last);
	L->rg = NULL;
	return R;
}

void
regions_resume(Lower *L, LowerRegions *R)
{
	L->rg = R;
}

/* The row block's end: the boundary where its last region (rows, or split) ends; under a grid
 * the `between` region starts there and ends at the loop's head (regions_head). Then thread 0
 * names the slot's CTA and keeps the slot as the CTA's last. After the kernel's work, so no
 * store comes before its loads. */
static void
flush(Lower *L, LowerRegions *R, int b)
{
	stamp(L, R, b);
	LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(L->cx, L->fn, "region.cta");
	LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(L->cx, L->fn, "region.done");
	LLVMBuildCondBr(L->b, R->tid0, yes, cont);
	LLVMPositionBuilderAtEnd(L->b, yes);
	LLVMValueRef p = LLVMBuildGEP2(L->b, L->i64, R->buf, &R->slot, 1, "");
	LLVMSetAlignment(LLVMBuildStore(L->b, LLVMBuildAdd(L->b, L->cta, ci64(L, 1), ""), p), 8);
	LLVMBuildBr(L->b, cont);
	LLVMPositionBuilderAtEnd(L->b, cont);
	if (R->grid)
		LLVMBuildStore(L->b, R->slot, R->last);
}

void
regions_tail_wait(Lower *L, int done)
{
	LowerRegions *R = L->rg;
	if (!R || R->tail != 3)
		return;
	stamp_last(L, R, 3 - done);
}

void
regions_tail(Lower *L)
{
	LowerRegions *R = L->rg;
	if (!R || !R->tail)
		return;
	stamp_last(L, R, 1);
}

/* The last boundary: the list as named metadata, read back by codegen_regions, and the stride
 * the stamps' addresses were built with. */
static void
regions_close(Lower *L, LowerRegions *R)
{
	LLVMSetInitializer(R->stride, ci64(L, 2 + (long long)R->list.n));
	for (int i = 0; i < R->list.n; i++) {
		const Region *r = &R->list.r[i];
		LLVMMetadataRef md[2] = {
		    LLVMMDStringInContext2(L->cx, r->name, strlen(r->name)),
		    LLVMValueAsMetadata(ci32(L, r->wait)),
		};
		LLVMAddNamedMetadataOperand(
		    L->mod, "rkc.regions",
		    LLVMMetadataAsValue(L->cx, LLVMMDNodeInContext2(L->cx, md, 2)));
	}
}

void
regions_after(Lower *L, LLVMValueRef v)
{
	LowerRegions *R = L->rg;
	if (R && R->nafter < (int)(sizeof R->after / sizeof R->after[0]))
		R->after[R->nafter++] = v;
}

/* A boundary: the open region ends and one of kind starts (regions_start stamped the first
 * one's start). R_BODY while a body is open does nothing (a persistent kernel that waited on a
 * value with no reduction pending); R_END closes the last region: at the kernel's exit, or under
 * a persistent grid at the end of each row block. */
void
region_mark(Lower *L, int kind)
{
	LowerRegions *R = L->rg;
	if (!R || (kind == R_BODY && R->open >= 0 && R->open_kind == R_BODY))
		return;
	if (kind == R_BODY && R->list.n == 0)
		R->persistent = 1;
	if (kind == R_END) {
		int b = R->list.n;
		if (R->grid)
			add_region(L, R, R_BETWEEN);
		for (int i = 0; i < R->tail; i++)
			add_region(L, R, R_END + i);
		flush(L, R, b);
		R->open = -1;
		regions_close(L, R);
		return;
	}
	int s = add_region(L, R, kind);
	if (s != 0)
		stamp(L, R, s);
	R->open = s;
	R->open_kind = kind;
}

void
regions_read(LLVMModuleRef mod, Regions *out)
{
	LLVMValueRef ops[MAX_REGIONS];
	unsigned n = LLVMGetNamedMetadataNumOperands(mod, "rkc.regions");
	if (n == 0 || n > MAX_REGIONS)
		return;
	LLVMGetNamedMetadataOperands(mod, "rkc.regions", ops);
	for (unsigned i = 0; i < n; i++) {
		LLVMValueRef f[2];
		LLVMGetMDNodeOperands(ops[i], f);
		unsigned len = 0;
		const char *s = LLVMGetMDString(f[0], &len);
		Region *r = &out->r[out->n++];
		snprintf(r->name, sizeof r->name, "%.*s", (int)len, s);
		r->wait = (int)LLVMConstIntGetZExtValue(f[1]);
	}
}

void
regions_manifest_param(Buf *b, const Regions *rs, const Launch *l)
{
	buf_printf(b,
		   ",\n    {\"name\": \"regions\", \"kind\": \"regions\", \"type\": \"u64\", "
		   "\"shape\": \"\", \"bytes\": %lld}",
		   (long long)(l->blocks * (rs->n + 2) * 8));
}

void
regions_manifest(Buf *b, const Regions *rs, const Launch *l)
{
	buf_printf(b,
		   ",\n  \"regions\": {\"param\": \"regions\", \"timer\": \"globaltimer\", "
		   "\"unit\": \"ns\", \"layout\": \"u64 [slot][cta+1, boundary 0..n]\", "
		   "\"slot\": \"%s\", \"slots\": %lld, \"words\": %d, \"bytes_value\": %lld, "
		   "\"group\": %d, \"every\": %d, \"list\": [",
		   l->grid_cap && !l->columns ? "row block" : "cta", (long long)l->blocks,
		   rs->n + 2, (long long)(l->blocks * (rs->n + 2) * 8), rs->group, rs->every);
	for (int i = 0; i < rs->n; i++)
		buf_printf(b, "%s\n    {\"name\": \"%s\", \"wait\": %s%s}", i ? "," : "",
			   rs->r[i].name, rs->r[i].wait ? "true" : "false",
			   rs->r[i].wait == WAIT_GRID ? ", \"over\": \"grid\"" : "");
	buf_puts(b, rs->n ? "\n  ]}" : "]}");
}
