/* Config checks before LLVM sees anything (LLVM aborts on bad input), and the launch geometry. */
#include <string.h>

#include "codegen/codegen.h"

/* The archs codegen emits for, the one list every command's --arch is checked against. LLVM 19's
 * NVPTX back end knows no sm_100 and writes PTX ISA 8.5 at most, and sm_100 needs 8.6: its code is
 * emitted for sm_90 and the header retargeted (codegen/emit.c, docs/codegen.md says why that is
 * sound). RKC_ARCHS spells the list for messages and --help. */
static const Arch archs[] = {
    {"sm_80", "sm_80", NULL, 0, 0, 0},	 /* A100 */
    {"sm_86", "sm_86", NULL, 0, 0, 0},	 /* chosen with sm_80's target data */
    {"sm_89", "sm_89", NULL, 0, 0, 0},	 /* likewise */
    {"sm_90", "sm_90", NULL, 1, 1, 0},	 /* H100 */
    {"sm_100", "sm_90", "8.6", 1, 1, 1}, /* B200: compile only, never run here */
};

const Arch *
codegen_arch_info(const char *arch)
{
	for (size_t i = 0; i < sizeof archs / sizeof *archs; i++)
		if (arch && strcmp(arch, archs[i].name) == 0)
			return &archs[i];
	return NULL;
}

const Arch *
codegen_archs(int *n)
{
	*n = (int)(sizeof archs / sizeof *archs);
	return archs;
}

int
codegen_arch(const char *arch, Diag *d)
{
	if (codegen_arch_info(arch))
		return 0;
	return diag(d, "unsupported arch '%s' (expected " RKC_ARCHS ")", arch ? arch : "");
}

int
codegen_check(const Kernel *k, const Compile *c, Diag *d)
{
	const Config *g = &c->cfg;
	if (codegen_arch(c->arch, d))
		return -1;
	if (c->dtype != TY_BF16 && c->dtype != TY_F16 && c->dtype != TY_F32)
		return diag(d, "unsupported dtype '%s' (expected bf16, f16 or f32)",
			    type_name(c->dtype));
	if (shape_check(c->M, c->N, d))
		return -1;
	/* NVPTX cannot select the cluster intrinsics below sm_90 (it would abort) */
	if (g->cluster > 1 && !g->coop && !codegen_arch_info(c->arch)->clusters)
		return diag(
		    d,
		    "cluster=%d: %s has no thread-block clusters (sm_90 and later have them; "
		    "coop=1 spreads a row over CTAs on any arch)",
		    g->cluster, c->arch);
	return config_check_emit(k, c->dtype, c->M, c->N, g, d);
}

/* Sums over rows, which need every CTA resident, take a static grid (heuristics/validate.c), so
 * a dynamic grid never has them. */
int
codegen_clc(const Compile *c)
{
	const Arch *a = codegen_arch_info(c->arch);
	return a && a->clc && c->cfg.grid > 0 && c->cfg.dynamic;
}

void
codegen_launch(const Kernel *k, const Compile *c, Launch *l)
{
	const Config *g = &c->cfg;
	l->rows_per_cta = g->m_block;
	l->segments = config_segments(g);
	l->grid_x = (c->M + g->m_block - 1) / g->m_block * l->segments;
	l->blocks = l->grid_x;
	/* under cluster launch control every row block is launched, and the CTAs that run take
	 * the blocks of those not yet started */
	l->grid_cap = g->grid > 0 && !codegen_clc(c) ? g->grid : 0;
	/* the whole kernel in the column pass: its grid whatever M, and --regions' slots its CTAs
	 */
	l->columns = colpass_whole(k->plan->colsum_whole, g);
	if (l->grid_cap && (l->grid_cap < l->grid_x || l->columns))
		l->grid_x = l->grid_cap;
	if (l->columns)
		l->blocks = l->grid_x;
	l->block_x = g->num_warps * 32;
	l->cluster_x = g->cluster > 1 && !g->coop ? g->cluster : 1;
	l->cooperative = config_cooperative(g, k->plan->ncolsum, k->plan->colsum_alone, c->N);
	Smem sm;
	smem_layout(k, c->dtype, c->N, g, &sm, NULL, NULL);
	l->dynamic_smem = sm.dyn_bytes;
	l->nworkspace = 0;
	l->nws = 0;
	if (g->split > 1) {
		for (int i = 0; i < k->nins; i++)
			if (op_is_reduce(k->ins[i].op))
				l->nworkspace += k->ins[i].op == OP_WELFORD ? 3 : 1;
		/* a u32 counter per row, padded to 16 bytes, then the partials (split_finish) */
		l->ws[l->nws++] = (WsRegion){"row_counters", 4, 0, 16};
		l->ws[l->nws++] =
		    (WsRegion){"partials", (int64_t)g->split * l->nworkspace * 4, 0, 4};
	}
	/* a cooperative row block's two u32 counters (arrived, left), then a slot a row, partial
	 * component and CTA of the row, for every row of the last block (coop_cross) */
	if (g->coop) {
		int64_t row = (int64_t)k->plan->nred * g->cluster * 4;
		l->ws[l->nws++] = (WsRegion){"coop_counters", 8, 0, 16};
		l->ws[l->nws++] = (WsRegion){"coop_partials", row, (g->m_block - 1) * row, 16};
	}
	/* the dynamic grid's next free row block and CTAs done, u32 each (lower_sched.c; the
	 * validator keeps a grid and split rows apart, so it starts the workspace) */
	if (g->grid > 0 && g->dynamic && !codegen_clc(c))
		l->ws[l->nws++] = (WsRegion){"work_counters", 0, 8, 16};
	/* sums over rows: their two counters, then a slot a row group of the grid, sized for the
	 * config's grid, the most CTAs a launch has (lower_colsum.c); the one slot's sums go to the
	 * outputs */
	if (k->plan->ncolsum &&
	    !colsum_one_slot(k->plan->ncolsum, k->plan->colsum_alone, g, c->N) &&
	    !colsum_column(k->plan->ncolsum, g)) {
		ColsumLayout cl;
		colsum_layout(g, k->plan->ncolsum, c->N, &cl);
		int64_t n = k->plan->ncolsum;
		l->ws[l->nws++] = (WsRegion){"colsum_counters", 0, 8, 16};
		l->ws[l->nws++] = (WsRegion){"colsum_partials", 0, n * cl.slots * cl.row_bytes, 16};
	}
	/* the column pass of a colsum that needs a row reduction: its two counters (arrived,
	 * left), then the row values it reads, Plan.nrowval f32 a row (lower_colsum.c) */
	if (colpass_rows(k->plan->ncolsum, k->plan->colsum_alone, g)) {
		l->ws[l->nws++] = (WsRegion){"colsum_counters", 0, 8, 16};
		l->ws[l->nws++] = (WsRegion){"row_values", (int64_t)k->plan->nrowval * 4, 0, 16};
	}
	l->workspace_bytes = codegen_workspace_bytes(l, c->M);
}

int64_t
codegen_ws_offset(const Launch *l, const char *name, int64_t M)
{
	int64_t n = 0;
	for (int i = 0; i < l->nws && strcmp(l->ws[i].name, name); i++) {
		const WsRegion *r = &l->ws[i];
		n += (r->per_row * M + r->fixed + r->align - 1) / r->align * r->align;
	}
	return n;
}

int64_t
codegen_workspace_bytes(const Launch *l, int64_t M)
{
	int64_t n = 0;
	for (int i = 0; i < l->nws; i++) {
		const WsRegion *r = &l->ws[i];
		n += (r->per_row * M + r->fixed + r->align - 1) / r->align * r->align;
	}
	return n;
}

int
codegen_strides(const Kernel *k, int *of)
{
	int n = 0;
	for (int p = 0; p < k->nparams; p++)
		if (k->params[p].kind != P_PARAM && k->params[p].shape == SH_TILE) {
			if (of)
				of[n] = p;
			n++;
		}
	return n;
}

int
codegen_access_align(int vec, int size)
{
	return vec * size > 16 ? 16 : vec * size;
}

int
codegen_array_align(const Kernel *k, const Compile *c, int p)
{
	const Param *pa = &k->params[p];
	int size = type_size(type_resolve(pa->type, c->dtype));
	int vector =
	    pa->shape == SH_TILE || (pa->shape == SH_VEC && config_rows_aligned(&c->cfg, c->N));
	for (int i = 0; vector && i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		if ((in->op == OP_LOAD || in->op == OP_STORE) && in->param == p)
			return codegen_access_align(c->cfg.vec, size);
	}
	return size;
}
