/* Config checks before LLVM sees anything (LLVM aborts on bad input), and the launch geometry. */
#include <string.h>

#include "codegen/codegen.h"

static const char *const archs[] = {"sm_80", "sm_86", "sm_89", "sm_90"};

int
codegen_arch(const char *arch, Diag *d)
{
	for (size_t i = 0; i < sizeof archs / sizeof *archs; i++)
		if (arch && strcmp(arch, archs[i]) == 0)
			return 0;
	return diag(d, "unsupported arch '%s' (expected sm_80, sm_86, sm_89 or sm_90)",
		    arch ? arch : "");
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
	if (g->cluster > 1 && strcmp(c->arch, "sm_90") < 0)
		return diag(
		    d, "cluster=%d: %s has no thread-block clusters (sm_90 and later have them)",
		    g->cluster, c->arch);
	return config_check_emit(k, c->dtype, c->M, c->N, g, d);
}

void
codegen_launch(const Kernel *k, const Compile *c, Launch *l)
{
	const Config *g = &c->cfg;
	l->rows_per_cta = g->m_block;
	l->segments = config_segments(g);
	l->grid_x = (c->M + g->m_block - 1) / g->m_block * l->segments;
	l->block_x = g->num_warps * 32;
	l->cluster_x = g->cluster > 1 ? g->cluster : 1;
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
	l->workspace_bytes = codegen_workspace_bytes(l, c->M);
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
