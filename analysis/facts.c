/* Facts: what a kernel loads, stores and reduces, and how many passes it needs when looped. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

/* Per-value dataflow: the inputs (param indices) reaching a value without passing through a
 * reduction, and the highest reduction level it depends on. Params past 64 go unseen, which only
 * matters for kernels far larger than any reduction kernel. */
typedef struct {
	uint64_t loads;
	int lvl;
} Flow;

static uint64_t
param_bit(int p)
{
	return p < 64 ? (uint64_t)1 << p : 0;
}

static int
words(Type t)
{
	return type_size(t) == 8 ? 2 : 1;
}

static const Instr *
defof(const Kernel *k, int v)
{
	return v >= 0 ? &k->ins[k->vals[v].def] : NULL;
}

/* A sum of exp(a - m) with m a max result is fused with that max into one online pass
 * (running max, sum rescaled when it grows); returns m's value id or -1. */
static int
online_max(const Kernel *k, const Instr *red)
{
	if (red->op != OP_RSUM)
		return -1;
	const Instr *e = defof(k, argval(red, 0));
	if (!e || e->op != OP_EXP)
		return -1;
	const Instr *d = defof(k, argval(e, 0));
	if (!d || d->op != OP_SUB)
		return -1;
	const Instr *m = defof(k, argval(d, 1));
	return m && m->op == OP_RMAX ? argval(d, 1) : -1;
}

/* Helion's row_reread for one load: walk its users forward, stopping at reductions and stores;
 * the row is re-read if two reductions, or a reduction and a store, are reached. */
static int
load_reread(const Kernel *k, int v, int *reaches_red)
{
	char *seen = calloc(k->nvals + 1, 1);
	int *stack = malloc(sizeof(int) * (k->nvals + 1));
	int n = 0, nred = 0, store = 0;
	stack[n++] = v;
	seen[v] = 1;
	while (n) {
		int u = stack[--n];
		for (int i = k->vals[u].def + 1; i < k->nins; i++) {
			const Instr *in = &k->ins[i];
			int uses = 0;
			for (int a = 0; a < in->nargs; a++)
				uses |= argval(in, a) == u;
			if (!uses)
				continue;
			if (op_is_reduce(in->op)) {
				nred++;
				continue;
			}
			if (in->op == OP_STORE) {
				store = 1;
				continue;
			}
			for (int r = 0; r < in->nres; r++)
				if (in->res[r] >= 0 && !seen[in->res[r]]) {
					seen[in->res[r]] = 1;
					stack[n++] = in->res[r];
				}
		}
	}
	free(seen);
	free(stack);
	*reaches_red = nred > 0;
	return nred >= 2 || (nred >= 1 && store);
}

static void
pass_add(Facts *f, const Kernel *k, int pass, uint64_t loads)
{
	if (pass >= MAX_PASSES)
		pass = MAX_PASSES - 1;
	for (int p = 0; p < k->nparams && p < 64; p++) {
		if (!(loads & param_bit(p)))
			continue;
		Type t = type_resolve(k->params[p].type, f->dtype);
		if (k->params[p].shape == SH_TILE)
			f->pass_tile_bytes[pass] += type_size(t);
		else
			f->pass_vec_bytes[pass] += type_size(t);
		f->pass_words[pass] += words(t);
	}
}

/* The looped plan of codegen/lower_rows.c: a pass per level of reductions, and a full-width store
 * rides with the first pass that knows its value (its level), so an apply pass exists only for
 * stores that need the last level (or when there is no reduction at all). Loads are counted once
 * per pass even when several reductions or stores of the pass read them. */
static void
passes_compute(Facts *f, const Kernel *k, const Flow *flow, const int *level)
{
	uint64_t pass_loads[MAX_PASSES] = {0};
	int apply = !f->levels;
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		int p = -1;
		if (op_is_reduce(in->op)) {
			p = level[i] - 1;
			f->pass_partials[p < MAX_PASSES ? p : MAX_PASSES - 1] +=
			    in->op == OP_WELFORD ? 3 : 1;
		} else if (in->op == OP_STORE && k->params[in->param].shape == SH_TILE)
			p = argval(in, 0) < 0 ? 0 : flow[argval(in, 0)].lvl;
		if (p < 0 || argval(in, 0) < 0)
			continue;
		apply |= f->levels && p == f->levels;
		pass_loads[p < MAX_PASSES ? p : MAX_PASSES - 1] |= flow[argval(in, 0)].loads;
	}
	f->passes = f->levels + apply;
	for (int p = 0; p < f->passes && p < MAX_PASSES; p++)
		pass_add(f, k, p, pass_loads[p]);
}

static void
chain_compute(Facts *f, const Kernel *k, const int *level, const char *fused)
{
	char *s = f->chain;
	size_t cap = sizeof f->chain, n = 0;
	s[0] = 0;
	for (int l = 1; l <= f->levels; l++) {
		if (l > 1)
			n += snprintf(s + n, n < cap ? cap - n : 0, " -> ");
		int first = 1;
		for (int i = 0; i < k->nins; i++) {
			if (!op_is_reduce(k->ins[i].op) || level[i] != l)
				continue;
			n += snprintf(s + n, n < cap ? cap - n : 0, "%s%s%s", first ? "" : ", ",
				      op_info[k->ins[i].op].name, fused[i] ? "(online)" : "");
			first = 0;
		}
	}
	if (f->passes > f->levels)
		n += snprintf(s + n, n < cap ? cap - n : 0, "%sapply", f->levels ? " -> " : "");
	if (n >= cap)
		strcpy(s + cap - 4, "...");
}

/* [M] values and scalar params are what a thread keeps besides its tiles. *loop gets the most
 * live while a reduction runs (beside the row's tiles or chunks); the return is the most live
 * anywhere, which for a long [M] epilogue (grpo) is after the tiles are dead. */
static int
row_regs(const Kernel *k, int *loop)
{
	int *last = kernel_last_uses(k);
	int live = 0, peak = 0, at_red = 0;
	for (int i = 0; i < k->nins; i++) {
		if (op_is_reduce(k->ins[i].op) && live > at_red)
			at_red = live;
		for (int r = 0; r < k->ins[i].nres; r++) {
			int v = k->ins[i].res[r];
			live += v >= 0 && k->vals[v].shape == SH_ROW;
		}
		peak = live > peak ? live : peak;
		for (int v = 0; v < k->nvals; v++)
			live -= last[v] == i && k->vals[v].shape == SH_ROW;
	}
	free(last);
	int params = 0;
	for (int p = 0; p < k->nparams; p++)
		params += k->params[p].kind == P_PARAM;
	*loop = at_red + params;
	return peak + params;
}

void
facts_compute(const Kernel *k, Type dtype, Facts *f)
{
	memset(f, 0, sizeof *f);
	f->dtype = dtype;
	Flow *flow = calloc(k->nvals + 1, sizeof *flow);
	int *level = calloc(k->nins + 1, sizeof *level);
	char *fused = calloc(k->nins + 1, 1);

	for (int p = 0; p < k->nparams; p++) {
		const Param *pa = &k->params[p];
		int sz = type_size(type_resolve(pa->type, dtype));
		if (pa->kind != P_PARAM)
			f->nptrs++;
		if (pa->kind == P_IN && pa->shape == SH_TILE)
			f->tile_in_bytes += sz;
		if (pa->kind == P_IN && pa->shape == SH_VEC)
			f->vec_in_bytes += sz;
		if (pa->kind == P_IN && pa->shape == SH_ROW)
			f->row_in_bytes += sz;
		if (pa->kind == P_OUT && pa->shape == SH_TILE)
			f->tile_out_bytes += sz;
		if (pa->kind == P_OUT && pa->shape == SH_ROW)
			f->row_out_bytes += sz;
	}

	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		Flow out = {0, 0};
		switch (in->op) {
		case OP_LOAD:
			f->nloads++;
			if (k->params[in->param].shape == SH_TILE)
				f->ntile_loads++;
			if (k->params[in->param].shape == SH_VEC)
				f->nvec_loads++;
			if (k->params[in->param].shape != SH_ROW)
				out.loads = param_bit(in->param);
			break;
		case OP_GATHER:
			/* one element of the row, fetched beside the reduction: an [M] read */
			f->nloads++;
			f->row_in_bytes +=
			    type_size(type_resolve(k->params[in->param].type, dtype));
			out.lvl = flow[argval(in, 0)].lvl;
			break;
		case OP_STORE:
			f->nstores++;
			if (k->params[in->param].shape == SH_TILE) {
				f->ntile_stores++;
				f->full_width_output = 1;
			}
			break;
		default:
			if (op_is_reduce(in->op)) {
				int v = argval(in, 0);
				f->nreds++;
				level[i] = flow[v].lvl + 1;
				int m = online_max(k, in);
				if (m >= 0) {
					const Instr *d = defof(k, argval(in, 0));
					d = defof(k, argval(d, 0));
					int a = argval(d, 0);
					int lm = level[k->vals[m].def];
					int la = a >= 0 ? flow[a].lvl + 1 : 1;
					if (la <= lm) {
						level[i] = lm;
						fused[i] = 1;
						f->online++;
					}
				}
				out.lvl = level[i];
				f->levels = level[i] > f->levels ? level[i] : f->levels;
				Type t = type_resolve(k->vals[v].type, dtype);
				f->compute_isz = type_size(t);
				break;
			}
			for (int a = 0; a < in->nargs; a++) {
				int v = argval(in, a);
				if (v < 0)
					continue;
				out.loads |= flow[v].loads;
				out.lvl = flow[v].lvl > out.lvl ? flow[v].lvl : out.lvl;
			}
		}
		for (int r = 0; r < in->nres; r++)
			if (in->res[r] >= 0)
				flow[in->res[r]] = out;
	}

	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		if (in->op != OP_LOAD || k->params[in->param].shape == SH_ROW)
			continue;
		int reaches = 0;
		f->row_reread |= load_reread(k, in->res[0], &reaches);
		int sz = type_size(type_resolve(k->params[in->param].type, dtype));
		if (reaches && (!f->load_isz || sz < f->load_isz))
			f->load_isz = sz;
	}

	passes_compute(f, k, flow, level);
	chain_compute(f, k, level, fused);

	f->split_ok = f->levels == 1 && !f->online && !f->full_width_output;

	f->helion_live = live_helion(k);
	f->held_tiles = live_held(k, dtype, &f->held_words);
	live_bytes_model(k, f);
	f->row_peak = row_regs(k, &f->row_regs);
	free(flow);
	free(level);
	free(fused);
}
