/* Facts: what a kernel loads, stores and reduces, and how many passes it needs when looped. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

static int
words(Type t)
{
	return type_size(t) == 8 ? 2 : 1;
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

/* The instructions a thread spends on one element for instruction in: op_info's count, and for
 * the storage types a conversion for each value loaded, stored or cast at 16 bits and the fp8
 * decoding's and encoding's integer steps (one conversion where f8_cvt: the hardware's cvt). Row
 * values ([M], scalars) cost nothing an element: a thread computes them once a row (per_element).
 */
static int
op_cost(const Kernel *k, const Instr *in, Type dtype, int f8_cvt)
{
	Type t = TY_F32;
	if (in->op == OP_LOAD || in->op == OP_STORE)
		t = type_resolve(k->params[in->param].type, dtype);
	else if (in->op == OP_CAST)
		t = in->to;
	else
		return op_info[in->op].ops;
	int narrow = t == TY_BF16 || t == TY_F16, f8 = t == TY_F8E4M3 || t == TY_F8E5M2;
	if (in->op == OP_LOAD)
		return narrow || (f8 && f8_cvt) ? 1 : f8 ? 4 : 0;
	return narrow || (f8 && f8_cvt) ? 1 : f8 ? 14 : op_info[in->op].ops;
}

/* Whether instruction in runs once an element of the row (not once a row). */
static int
per_element(const Kernel *k, const Instr *in)
{
	if (in->op == OP_LOAD || in->op == OP_STORE)
		return shape_has_n(k->params[in->param].shape);
	if (op_is_reduce(in->op))
		return 1;
	return in->nres > 0 && in->res[0] >= 0 && shape_has_n(k->vals[in->res[0]].shape);
}

/* The instructions an element of those need marks and those pass s holds (its reductions, the
 * stores and colsums riding with it); all of them when need is NULL (a persistent row). */
static int
ops_of(const Kernel *k, const Plan *plan, const char *need, int s, Type dtype, int f8_cvt)
{
	int n = 0;
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		int runs = need ? need[i] || plan->pass[i] == s : 1;
		if (runs && per_element(k, in))
			n += op_cost(k, in, dtype, f8_cvt);
		/* a looped online sum takes exp(t - max) itself, beside the ops need marks */
		if (need && plan->pass[i] == s && plan->fused[i] >= 0)
			n += op_info[OP_SUB].ops + op_info[OP_EXP].ops;
	}
	return n;
}

void
plan_colpass_arrays(const Plan *p, const Kernel *k, Type dtype, ColpassArrays *a)
{
	*a = (ColpassArrays){0};
	for (int i = 0; p->need_colpass && i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		if (!p->need_colpass[i])
			continue;
		if (per_element(k, in))
			a->ops += op_cost(k, in, dtype, 0);
		if (in->param < 0 || k->params[in->param].shape != SH_TILE ||
		    (in->op != OP_LOAD && in->op != OP_STORE))
			continue;
		int sz = type_size(type_resolve(k->params[in->param].type, dtype));
		a->n++;
		a->stores += in->op == OP_STORE;
		a->bytes += sz;
		a->isz = !a->isz || sz < a->isz ? sz : a->isz;
	}
}

/* What each looped pass of the plan reads (each load once a pass, however many of its reductions
 * and stores use it) and the partials its reductions carry: the plain plan's, without the
 * read-back (reload_saves says what it spares; the cost model counts it for kept rows, in
 * kept_bytes, not for streamed ones). Passes past MAX_PASSES count in the last slot. */
static void
passes_compute(Facts *f, const Kernel *k, const Plan *plan)
{
	f->reload_saves = plan_reload_saves(plan, k, f->dtype);
	for (int s = 0; s < plan->npasses; s++) {
		int slot = s < MAX_PASSES ? s : MAX_PASSES - 1;
		const char *need = plan_need(plan, k, s);
		char *seen = calloc(k->nparams + 1, 1);
		for (int i = 0; i < k->nins; i++) {
			const Instr *in = &k->ins[i];
			if (op_is_reduce(in->op) && plan->pass[i] == s)
				f->pass_partials[slot] += in->op == OP_WELFORD ? 3 : 1;
			if (!need[i] || in->op != OP_LOAD || seen[in->param])
				continue;
			seen[in->param] = 1;
			Type t = type_resolve(k->params[in->param].type, f->dtype);
			if (k->params[in->param].shape == SH_TILE)
				f->pass_tile_bytes[slot] += type_size(t);
			else
				f->pass_vec_bytes[slot] += type_size(t);
			f->pass_words[slot] += words(t);
		}
		free(seen);
		f->pass_ops[slot] += ops_of(k, plan, need, s, f->dtype, 0);
		f->pass_issue_ops[slot] += ops_of(k, plan, need, s, f->dtype, 1);
	}
	f->ops = ops_of(k, plan, NULL, 0, f->dtype, 0);
	f->issue_ops = ops_of(k, plan, NULL, 0, f->dtype, 1);
}

/* The plan's passes in words: "max, sum(online) -> sum -> apply". */
static void
chain_compute(Facts *f, const Kernel *k, const Plan *plan)
{
	char *s = f->chain;
	size_t cap = sizeof f->chain, n = 0;
	s[0] = 0;
	for (int p = 0; p < plan->nreduce; p++) {
		if (p > 0)
			n += snprintf(s + n, n < cap ? cap - n : 0, " -> ");
		int first = 1;
		for (int i = 0; i < k->nins; i++) {
			if (!op_is_reduce(k->ins[i].op) || plan->pass[i] != p)
				continue;
			n += snprintf(s + n, n < cap ? cap - n : 0, "%s%s%s", first ? "" : ", ",
				      op_info[k->ins[i].op].name,
				      plan->fused[i] >= 0 ? "(online)" : "");
			first = 0;
		}
	}
	if (plan->apply)
		n += snprintf(s + n, n < cap ? cap - n : 0, "%sapply", plan->nreduce ? " -> " : "");
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

/* Whether some load of parameter p is among the instructions need marks. */
static int
param_read(const Kernel *k, const char *need, int p)
{
	for (int i = 0; i < k->nins; i++)
		if (need[i] && k->ins[i].param == p &&
		    (k->ins[i].op == OP_LOAD || k->ins[i].op == OP_GATHER))
			return 1;
	return 0;
}

/* The [M,N] input bytes an element some load among need reads, and, where also is given, some
 * load among also too. */
static int
tile_read_bytes(const Kernel *k, const char *need, const char *also, Type dtype)
{
	int bytes = 0;
	for (int p = 0; p < k->nparams; p++) {
		const Param *pa = &k->params[p];
		if (pa->kind == P_IN && pa->shape == SH_TILE && param_read(k, need, p) &&
		    (!also || param_read(k, also, p)))
			bytes += type_size(type_resolve(pa->type, dtype));
	}
	return bytes;
}

void
facts_compute(const Kernel *k, Type dtype, Facts *f)
{
	const Plan *plan = k->plan;
	memset(f, 0, sizeof *f);
	f->dtype = dtype;

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
		Shape sh = in->param >= 0 ? k->params[in->param].shape : SH_SCALAR;
		switch (in->op) {
		case OP_LOAD:
			f->nloads++;
			f->ntile_loads += sh == SH_TILE;
			f->nvec_loads += sh == SH_VEC;
			break;
		case OP_GATHER:
			/* one element of the row, fetched beside the reduction: an [M] read */
			f->nloads++;
			f->row_in_bytes +=
			    type_size(type_resolve(k->params[in->param].type, dtype));
			break;
		case OP_STORE:
			f->nstores++;
			if (sh == SH_TILE) {
				f->ntile_stores++;
				f->full_width_output = 1;
			}
			break;
		default:
			if (op_is_reduce(in->op)) {
				f->nreds++;
				Type t = type_resolve(k->vals[argval(in, 0)].type, dtype);
				f->compute_isz = type_size(t);
			}
		}
	}

	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		if (in->op != OP_LOAD || in->res[0] < 0 || k->params[in->param].shape == SH_ROW)
			continue;
		int reaches = 0;
		f->row_reread |= load_reread(k, in->res[0], &reaches);
		int sz = type_size(type_resolve(k->params[in->param].type, dtype));
		if (reaches && (!f->load_isz || sz < f->load_isz))
			f->load_isz = sz;
	}

	/* the [M,N] loads a later looped pass reads again: what smem=1 keeps on chip; with the
	 * read-back, those it still reads and the values it loads back (smem_layout) */
	int back = plan_reads_back(plan, k, dtype);
	const int *last = plan_last_reads(plan, k, dtype, 0);
	for (int i = 0; i < k->nins; i++) {
		if (back && plan->reload[i])
			f->kept_bytes += type_size(
			    type_resolve(k->params[k->ins[plan->reload[i] - 1].param].type, dtype));
		if (k->ins[i].op != OP_LOAD || k->params[k->ins[i].param].shape != SH_TILE)
			continue;
		int size = type_size(type_resolve(k->params[k->ins[i].param].type, dtype));
		f->kept_bytes += last[i] > plan->first_read[i] ? size : 0;
		f->stash_kept_bytes += plan_last_read(plan, i, 1) > plan->first_read[i] ? size : 0;
	}
	f->stashes = plan->nstash;
	f->stash_spared = plan->stash_spared;
	f->stash_spared_ops = plan->stash_spared_ops;
	f->stash_kept_bytes += 4 * plan->nstash;
	f->red_results = plan->nred;
	f->levels = plan->nreduce;
	f->row_exchanges = plan->row_exchanges;
	f->online = plan->nonline;
	f->passes = plan->npasses;
	f->colpass_passes = plan->npasses - plan->apply_colsums;
	f->split_ok = plan->split_ok;
	f->colsums = plan->ncolsum;
	f->colsum_alone = plan->colsum_alone;
	for (int i = 0; plan->need_colsum && i < k->nins; i++)
		if (plan->need_colsum[i] && k->ins[i].op == OP_LOAD &&
		    k->params[k->ins[i].param].shape == SH_TILE) {
			int sz = type_size(type_resolve(k->params[k->ins[i].param].type, dtype));
			f->colsum_tile_bytes += sz;
			if (!f->colsum_isz || sz < f->colsum_isz)
				f->colsum_isz = sz;
		}
	f->rows_tile_bytes = f->tile_in_bytes;
	f->colsum_rows_bytes = f->colsum_tile_bytes;
	if (plan->need_rows) {
		f->rows_tile_bytes = tile_read_bytes(k, plan->need_rows, NULL, dtype);
		f->colsum_rows_bytes =
		    tile_read_bytes(k, plan->need_colsum, plan->need_rows, dtype);
	}
	f->colsum_only = f->colsum_alone && kernel_colsum_outputs_only(k);
	f->colsum_whole = plan->colsum_whole;
	f->colpass_stores = plan_colpass_stores(plan, k);
	f->colpass_words = plan_colpass_words(plan, k, dtype);
	plan_colpass_arrays(plan, k, dtype, &f->colpass_arrays);
	passes_compute(f, k, plan);
	chain_compute(f, k, plan);

	f->helion_live = live_helion(k);
	f->held_tiles = live_held(k, dtype, &f->held_words);
	live_bytes_model(k, f);
	f->row_peak = row_regs(k, &f->row_regs);
}
