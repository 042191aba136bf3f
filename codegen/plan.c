/* Pass plan: which reduction pass each value needs, and which max/sum pairs fuse into one pass. */
#include "codegen/codegen.h"

/* A sum of exp(t - m), where m = max(u) and t is known in the max's pass, can be summed online in
 * that pass (rescaling by exp(m_old - m_new)), which saves one read of the row when looped. */
static int
fusable_max(const Kernel *k, const Plan *p, const Instr *sum)
{
	const Arg *a = &sum->args[0];
	if (a->kind != ARG_VAL)
		return -1;
	const Instr *e = &k->ins[k->vals[a->idx].def];
	if (e->op != OP_EXP || e->args[0].kind != ARG_VAL)
		return -1;
	const Instr *d = &k->ins[k->vals[e->args[0].idx].def];
	if (d->op != OP_SUB || d->args[0].kind != ARG_VAL || d->args[1].kind != ARG_VAL)
		return -1;
	int t = d->args[0].idx, m = d->args[1].idx;
	int im = k->vals[m].def;
	if (k->ins[im].op != OP_RMAX || !shape_has_n(k->vals[t].shape))
		return -1;
	if (p->lvl[t] > p->pass[im])
		return -1;
	return im;
}

void
plan_kernel(const Kernel *k, Arena *a, Plan *p)
{
	p->lvl = arena_alloc(a, sizeof(int) * (k->nvals + 1));
	p->pass = arena_alloc(a, sizeof(int) * (k->nins + 1));
	p->fused = arena_alloc(a, sizeof(int) * (k->nins + 1));
	int *taken = arena_alloc(a, sizeof(int) * (k->nins + 1));
	p->npasses = 0;
	p->tile_store = 0;
	p->nred = 0;
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		int lvl = 0;
		for (int j = 0; j < in->nargs; j++)
			if (in->args[j].kind == ARG_VAL && p->lvl[in->args[j].idx] > lvl)
				lvl = p->lvl[in->args[j].idx];
		p->pass[i] = -1;
		p->fused[i] = -1;
		if (op_is_reduce(in->op)) {
			int im = in->op == OP_RSUM ? fusable_max(k, p, in) : -1;
			if (im >= 0 && !taken[im]) {
				taken[im] = 1;
				p->fused[i] = im;
				lvl = p->pass[im];
			}
			p->pass[i] = lvl;
			if (lvl + 1 > p->npasses)
				p->npasses = lvl + 1;
			p->nred += in->op == OP_WELFORD ? 3 : 1;
			lvl++;
		}
		if (in->op == OP_STORE && shape_has_n(k->params[in->param].shape))
			p->tile_store = 1;
		for (int j = 0; j < in->nres; j++)
			if (in->res[j] >= 0)
				p->lvl[in->res[j]] = lvl;
	}
}
