/* Config checks before LLVM sees anything (LLVM aborts on bad input), and the launch geometry. */
#include <string.h>

#include "codegen/codegen.h"

/* Elements one thread holds per live value and chunk; beyond this the unrolled code is too big. */
#define MAX_ELEMS 512

static const char *const archs[] = {"sm_80", "sm_86", "sm_89", "sm_90"};

static int
pow2(int64_t x)
{
	return x > 0 && (x & (x - 1)) == 0;
}

int
codegen_split_ok(const Kernel *k)
{
	Arena *a = arena_new();
	Plan p;
	plan_kernel(k, a, &p);
	int ok = p.nred > 0 && p.npasses == 1 && !p.tile_store;
	for (int i = 0; i < k->nins; i++)
		if (p.fused[i] >= 0)
			ok = 0;
	arena_free(a);
	return ok;
}

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
	if (!pow2(g->num_warps) || g->num_warps > 32)
		return diag(d, "num_warps=%d: must be a power of two from 1 to 32", g->num_warps);
	if (!pow2(g->m_block) || g->m_block > g->num_warps * 32)
		return diag(d, "m_block=%d: must be a power of two from 1 to num_warps*32 = %d",
			    g->m_block, g->num_warps * 32);
	int tpr = config_tpr(g);
	int size = type_size(c->dtype);
	if (!pow2(g->vec) || g->vec * size > 16)
		return diag(d, "vec=%d: must be a power of two with vec*%d bytes <= 16", g->vec,
			    size);
	if (g->r_block < 1 || g->r_block % ((int64_t)tpr * g->vec) != 0)
		return diag(d, "r_block=%lld: must be a positive multiple of tpr*vec = %d*%d",
			    (long long)g->r_block, tpr, g->vec);
	if (g->r_block / tpr > MAX_ELEMS)
		return diag(d, "r_block=%lld gives %lld elements per thread (tpr=%d); at most %d",
			    (long long)g->r_block, (long long)(g->r_block / tpr), tpr, MAX_ELEMS);
	if (g->split < 1 || g->split > 65536)
		return diag(d, "split=%d: must be from 1 to 65536", g->split);
	if (g->split > 1 && !codegen_split_ok(k))
		return diag(d,
			    "split=%d: kernel '%s' cannot split rows (it needs reductions that "
			    "combine in one pass and no full-width output)",
			    g->split, k->name);
	int64_t seg = (c->N + g->split - 1) / g->split;
	if (g->persistent && g->r_block < seg)
		return diag(d, "persistent needs r_block >= %s = %lld, got r_block=%lld",
			    g->split > 1 ? "cdiv(N, split)" : "N", (long long)seg,
			    (long long)g->r_block);
	if (g->persistent != 0 && g->persistent != 1)
		return diag(d, "persistent=%d: must be 0 or 1", g->persistent);
	int64_t grid = (c->M + g->m_block - 1) / g->m_block * g->split;
	if (grid > INT32_MAX)
		return diag(d, "grid of %lld CTAs exceeds 2^31-1", (long long)grid);
	return 0;
}

void
codegen_launch(const Kernel *k, const Compile *c, Launch *l)
{
	const Config *g = &c->cfg;
	l->grid_x = (c->M + g->m_block - 1) / g->m_block * g->split;
	l->block_x = g->num_warps * 32;
	l->nworkspace = 0;
	l->workspace_bytes = 0;
	if (g->split > 1) {
		for (int i = 0; i < k->nins; i++)
			if (op_is_reduce(k->ins[i].op))
				l->nworkspace += k->ins[i].op == OP_WELFORD ? 3 : 1;
		/* a u32 counter per row, padded to 16 bytes, then the partials */
		l->workspace_bytes =
		    (c->M * 4 + 15) / 16 * 16 + c->M * (int64_t)g->split * l->nworkspace * 4;
	}
}
