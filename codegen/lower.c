/* Lowering: a kernel and a config to one PTX kernel in an LLVM module (DESIGN.md §8). */
#include <string.h>

#include "codegen/lower.h"

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
