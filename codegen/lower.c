/* Lowering: a kernel and a config to one PTX kernel in an LLVM module (docs/codegen.md). */
#include <string.h>

#include "codegen/lower.h"

static LLVMValueRef
sreg(Lower *L, const char *name)
{
	return intr(L, name, NULL, NULL, 0);
}

/* Kernel arguments and the thread's place in its CTA: its lane within the row and its segment. */
/* The byte offset of workspace region name at the launch's M (L->M), by codegen_launch's layout:
 * a region before it may grow with M (a cooperative row block's counters). */
static LLVMValueRef
ws_region(Lower *L, const char *name)
{
	Launch l;
	codegen_launch(L->k, L->c, &l);
	LLVMValueRef n = ci64(L, 0);
	for (int i = 0; i < l.nws && strcmp(l.ws[i].name, name); i++) {
		const WsRegion *r = &l.ws[i];
		LLVMValueRef b = ci64(L, r->fixed + r->align - 1);
		if (r->per_row)
			b = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, L->M, ci64(L, r->per_row), ""), b,
					 "");
		b = LLVMBuildMul(L->b, LLVMBuildUDiv(L->b, b, ci64(L, r->align), ""),
				 ci64(L, r->align), "");
		n = LLVMBuildAdd(L->b, n, b, "");
	}
	return n;
}

static void
prologue(Lower *L)
{
	const Kernel *k = L->k;
	const Config *g = &L->c->cfg;
	int *tiles = arena_alloc(L->a, sizeof(int) * (k->nparams + 1));
	int ns = codegen_strides(k, tiles), ws_at = k->nparams + 2 + ns;
	int np = ws_at + L->has_ws;
	LLVMTypeRef *pt = arena_alloc(L->a, sizeof(LLVMTypeRef) * np);
	for (int i = 0; i < k->nparams; i++)
		pt[i] = k->params[i].kind == P_PARAM ? L->f32 : L->ptr1;
	for (int i = k->nparams; i < ws_at; i++) /* M, N and the row strides */
		pt[i] = L->i64;
	if (L->has_ws)
		pt[ws_at] = L->ptr1;
	pt = regions_param_type(L, pt, &np);
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
	/* N stays an argument (the manifest's ABI), but the PTX is only promised for the compiled
	 * N: the code uses the constant, so masks, divisions by N and index math fold */
	LLVMSetValueName2(L->M, "M", 1);
	LLVMSetValueName2(LLVMGetParam(L->fn, k->nparams + 1), "N", 1);
	L->N = ci64(L, L->c->N);
	L->stride = arena_alloc(L->a, sizeof(LLVMValueRef) * k->nparams);
	L->rowoff = arena_alloc(L->a, sizeof(LLVMValueRef) * k->nparams);
	for (int i = 0; i < ns; i++) {
		char name[96];
		snprintf(name, sizeof name, "%s.stride", k->params[tiles[i]].name);
		L->stride[tiles[i]] = LLVMGetParam(L->fn, k->nparams + 2 + i);
		LLVMSetValueName2(L->stride[tiles[i]], name, strlen(name));
	}
	if (L->has_ws) {
		L->ws = LLVMGetParam(L->fn, ws_at);
		LLVMSetValueName2(L->ws, "workspace", 9);
		LLVMAddAttributeAtIndex(L->fn, ws_at + 1,
					LLVMCreateEnumAttribute(L->cx, noalias, 0));
	}
	LLVMPositionBuilderAtEnd(L->b, LLVMAppendBasicBlockInContext(L->cx, L->fn, "entry"));
	L->Nf = LLVMBuildSIToFP(L->b, L->N, L->f32, "");
	/* the colsums' regions (counters, partials, row values) are addressed at their offsets for
	 * the compiled M from L->wsc: the workspace moved by what the regions before them grow at
	 * the launch's M (a cooperative row block's counters) */
	L->wsc = L->ws;
	Launch l;
	codegen_launch(k, L->c, &l);
	for (int i = 0; L->has_ws && i < l.nws; i++)
		if (!strcmp(l.ws[i].name, "colsum_counters")) {
			LLVMValueRef by = LLVMBuildSub(
			    L->b, ws_region(L, "colsum_counters"),
			    ci64(L, codegen_ws_offset(&l, "colsum_counters", L->c->M)), "");
			L->wsc = LLVMBuildGEP2(L->b, L->i8, L->ws, &by, 1, "wsc");
		}
	LLVMValueRef tid = sreg(L, "llvm.nvvm.read.ptx.sreg.tid.x");
	L->cta = LLVMBuildZExt(L->b, sreg(L, "llvm.nvvm.read.ptx.sreg.ctaid.x"), L->i64, "");
	L->grp = LLVMBuildUDiv(L->b, tid, ci32(L, L->tpr), "");
	L->lane = LLVMBuildZExt(L->b, LLVMBuildURem(L->b, tid, ci32(L, L->tpr), ""), L->i64, "");
	L->lofs = LLVMBuildMul(L->b, L->lane, ci64(L, L->vec), "");
	L->lane32 = LLVMBuildURem(L->b, tid, ci32(L, 32), "");
	L->warp = LLVMBuildUDiv(L->b, tid, ci32(L, 32), "");
	L->seg = LLVMBuildURem(L->b, L->cta, ci64(L, L->nseg), "");
	L->band = LLVMBuildUDiv(L->b, L->cta, ci64(L, L->nseg), "");
	if (L->nseg > 1) {
		/* segments are cdiv(cdiv(N, nseg), granule) * granule columns
		 * (config_segment_granule; a cluster's CTAs are consecutive in x, so its rank is
		 * the segment) */
		LLVMValueRef per = LLVMBuildSDiv(
		    L->b, LLVMBuildAdd(L->b, L->N, ci64(L, L->nseg - 1), ""), ci64(L, L->nseg), "");
		int64_t gr = config_segment_granule(g);
		LLVMValueRef rbk = ci64(L, gr);
		LLVMValueRef len = LLVMBuildMul(
		    L->b,
		    LLVMBuildSDiv(L->b, LLVMBuildAdd(L->b, per, ci64(L, gr - 1), ""), rbk, ""), rbk,
		    "");
		L->seg_start = LLVMBuildMul(L->b, L->seg, len, "");
		LLVMValueRef e = LLVMBuildAdd(L->b, L->seg_start, len, "");
		LLVMValueRef lt = LLVMBuildICmp(L->b, LLVMIntSLT, e, L->N, "");
		L->seg_end = LLVMBuildSelect(L->b, lt, e, L->N, "");
	} else {
		L->seg_start = ci64(L, 0);
		L->seg_end = L->N;
	}
}

static LLVMValueRef
shared_global(Lower *L, const char *name, LLVMTypeRef t, LLVMLinkage link)
{
	LLVMValueRef g = LLVMAddGlobalInAddressSpace(L->mod, t, name, 3);
	LLVMSetLinkage(g, link);
	if (link == LLVMInternalLinkage)
		LLVMSetInitializer(g, LLVMGetUndef(t));
	LLVMSetAlignment(g, 16);
	return g;
}

/* The shared memory smem_layout describes: on the GPU, static arrays for the cross-warp and the
 * cluster partials and an extern array for the rows kept on chip (sized at launch); on the host,
 * the same three at 16-byte aligned offsets of the emulated CTA's own block, so the CTAs of a
 * cluster, which the emulator runs together, each have theirs. */
static void
shared_arrays(Lower *L)
{
	const Config *g = &L->c->cfg;
	Smem sm;
	L->row_off = arena_alloc(L->a, sizeof(int64_t) * (L->k->nins + 1));
	L->row_bytes = arena_alloc(L->a, sizeof(int64_t) * (L->k->nins + 1));
	smem_layout(L->k, L->c->dtype, L->c->N, g, &sm, L->row_off, L->row_bytes);
	if (L->host) {
		LLVMTypeRef ft = LLVMFunctionType(L->ptr1, NULL, 0, 0);
		LLVMValueRef f = LLVMAddFunction(L->mod, "emu.smem.base", ft);
		LLVMValueRef base = LLVMBuildCall2(L->b, ft, f, NULL, 0, "");
		int64_t at[3];
		smem_block(&sm, at);
		LLVMValueRef *dst[3] = {&L->smem, &L->clu, &L->dyn};
		for (int i = 0; i < 3; i++) {
			LLVMValueRef off = ci64(L, at[i]);
			*dst[i] = LLVMBuildGEP2(L->b, L->i8, base, &off, 1, "");
		}
		return;
	}
	if (sm.red_bytes)
		L->smem = shared_global(L, "red_smem", LLVMArrayType(L->f32, sm.red_bytes / 4),
					LLVMInternalLinkage);
	if (L->clc) /* the host's try_cancel needs no response words (lower_sched.c) */
		L->clc_smem =
		    shared_global(L, "clc_smem", LLVMArrayType(L->i8, 32), LLVMInternalLinkage);
	if (sm.cluster_bytes)
		L->clu =
		    shared_global(L, "cluster_smem", LLVMArrayType(L->f32, sm.cluster_bytes / 4),
				  LLVMInternalLinkage);
	if (sm.dyn_bytes)
		L->dyn =
		    shared_global(L, "rows_smem", LLVMArrayType(L->i8, 0), LLVMExternalLinkage);
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
	L.plan = k->plan;
	L.b = LLVMCreateBuilderInContext(cx);
	L.f32 = LLVMFloatTypeInContext(cx);
	L.i8 = LLVMInt8TypeInContext(cx);
	L.i32 = LLVMInt32TypeInContext(cx);
	L.i64 = LLVMInt64TypeInContext(cx);
	L.ptr1 = LLVMPointerTypeInContext(cx, host ? 0 : 1);
	L.tpr = config_tpr(g);
	L.wpr = L.tpr > 32 ? L.tpr / 32 : 1;
	L.vec = g->vec;
	L.ring = g->ahead >= 2;
	L.E = (int)(g->r_block / L.tpr);
	L.nvec = L.E / L.vec;
	L.split = g->split;
	Launch launch;
	codegen_launch(k, c, &launch);
	L.has_ws = launch.nws > 0; /* the manifest lists the parameter for the same regions */
	L.clc = codegen_clc(c);
	L.nseg = config_segments(g);
	L.cluster = g->cluster > 1 ? g->cluster : 1;
	L.coop = g->coop;
	L.shifted = !config_rows_aligned(g, c->N);
	L.stash = g->stash && g->smem && !g->persistent && k->plan->nstash;
	L.reload = !g->persistent && plan_reads_back(k->plan, k, c->dtype);
	L.uni = arena_alloc(L.a, sizeof(LLVMValueRef) * (k->nvals + 1));
	L.el = arena_alloc(L.a, sizeof(LLVMValueRef *) * (k->nvals + 1));
	L.done = arena_alloc(L.a, k->nins + 1);
	L.md_inv = LLVMGetMDKindIDInContext(cx, "invariant.load", 14);
	L.md_empty = LLVMMetadataAsValue(cx, LLVMMDNodeInContext2(cx, NULL, 0));
	prologue(&L);
	if (g->evict && !host)
		make_policies(&L);
	shared_arrays(&L);
	regions_begin(&L);
	lower_rows(&L);
	/* .maxntid alone makes ptxas cap registers for an occupancy it guesses (64 at 256 threads,
	 * spilling held rows); .minnctapersm 1 lets it use what one CTA per SM allows */
	if (host) {
		host_entry(&L);
		host_truncsfbf2(&L);
	} else {
		annotate(&L, "maxntidx", g->num_warps * 32);
		annotate(&L, "minctasm", g->min_ctas > 1 ? g->min_ctas : 1);
	}
	LLVMDisposeBuilder(L.b);
	arena_free(L.a);
	return L.err ? -1 : 0;
}
