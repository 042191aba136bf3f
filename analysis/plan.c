/* The pass plan: how a looped row is streamed, decided once for facts, models, explain, codegen. */
#include <string.h>

#include "analysis/analysis.h"

/*
 * A looped row is streamed once per level of dependent reductions: a reduction runs in the pass
 * after the last reduction its operand depends on. A sum of exp(t - m), where m = max(u) and t is
 * an rdim value known in the max's pass, is summed online in that pass instead (a running max,
 * the sum rescaled by exp(m_old - m_new) when it grows): one read of the row fewer. Up to
 * MAX_ONLINE_SUMS sums ride with each max, a rescaled partial each; a further sum of the same max
 * waits for the max's result. Returns the max's instruction, or -1.
 */
static int
online_max(const Kernel *k, const Plan *p, const char *taken, const Instr *sum)
{
	if (sum->op != OP_RSUM || argval(sum, 0) < 0)
		return -1;
	const Instr *e = &k->ins[k->vals[argval(sum, 0)].def];
	if (e->op != OP_EXP || argval(e, 0) < 0)
		return -1;
	const Instr *d = &k->ins[k->vals[argval(e, 0)].def];
	if (d->op != OP_SUB || argval(d, 0) < 0 || argval(d, 1) < 0)
		return -1;
	int t = argval(d, 0), im = k->vals[argval(d, 1)].def;
	if (k->ins[im].op != OP_RMAX || taken[im] == MAX_ONLINE_SUMS ||
	    !shape_has_n(k->vals[t].shape))
		return -1;
	return p->lvl[t] <= p->pass[im] ? im : -1;
}

/* The t of a fused sum(exp(t - m)): the rdim value the pass streams for it. */
static int
online_term(const Kernel *k, const Instr *sum)
{
	const Instr *e = &k->ins[k->vals[argval(sum, 0)].def];
	return argval(&k->ins[k->vals[argval(e, 0)].def], 0);
}

int
plan_is_tile_store(const Kernel *k, const Instr *in)
{
	return in->op == OP_STORE && shape_has_n(k->params[in->param].shape) &&
	       !instr_is_colsum_store(k, in);
}

/* Marks in need the instructions that compute the rdim values in want, walking operands back
 * through rdim values only: [M] values and reduction results are known before the pass. An
 * instruction flagged in given (may be NULL) has its value already: the walk stops there. */
static void
cone(const Kernel *k, char *want, char *need, const char *given)
{
	for (int i = k->nins - 1; i >= 0; i--) {
		const Instr *in = &k->ins[i];
		int hit = need[i];
		for (int r = 0; r < in->nres; r++)
			hit |= in->res[r] >= 0 && want[in->res[r]];
		if (!hit || (given && given[i]))
			continue;
		need[i] = 1;
		for (int j = 0; j < in->nargs; j++) {
			int v = argval(in, j);
			if (v >= 0 && shape_has_n(k->vals[v].shape))
				want[v] = 1;
		}
	}
}

/* Levels, passes and online pairs, in program order. */
static void
assign_passes(const Kernel *k, Plan *p, char *taken)
{
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		int lvl = 0;
		for (int j = 0; j < in->nargs; j++)
			if (argval(in, j) >= 0 && p->lvl[argval(in, j)] > lvl)
				lvl = p->lvl[argval(in, j)];
		p->pass[i] = p->fused[i] = -1;
		if (op_is_reduce(in->op)) {
			int im = online_max(k, p, taken, in);
			if (im >= 0) {
				taken[im]++;
				p->fused[i] = im;
				p->nonline++;
				lvl = p->pass[im];
			}
			p->pass[i] = lvl;
			p->nreduce = lvl + 1 > p->nreduce ? lvl + 1 : p->nreduce;
			p->nred += in->op == OP_WELFORD ? 3 : 1;
			lvl++;
		}
		for (int j = 0; j < in->nres; j++)
			if (in->res[j] >= 0)
				p->lvl[in->res[j]] = lvl;
	}
	/* a full-width store (or a colsum) rides with the first pass that knows its value; one
	 * that needs the last level's results (or a kernel without reductions) gets an apply pass
	 * of its own */
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		if (!plan_is_tile_store(k, in) && in->op != OP_COLSUM)
			continue;
		p->nstores += in->op == OP_STORE;
		p->ncolsum += in->op == OP_COLSUM;
		p->pass[i] = argval(in, 0) >= 0 ? p->lvl[argval(in, 0)] : 0;
		p->apply |= p->pass[i] == p->nreduce;
	}
	p->npasses = p->nreduce + p->apply;
}

/* Pass s's need: its reductions' operands (for an online pair, the max's operand and the sum's
 * t) and its stores' values, with the rdim instructions they need, up to those given. */
static void
pass_need(const Kernel *k, const Plan *p, int s, char *want, char *need, const char *given)
{
	memset(want, 0, k->nvals + 1);
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		if (p->pass[i] != s)
			continue;
		if (in->op == OP_STORE || in->op == OP_COLSUM)
			need[i] = 1;
		else if (p->fused[i] >= 0)
			want[online_term(k, in)] = 1;
		else if (argval(in, 0) >= 0)
			want[argval(in, 0)] = 1;
	}
	cone(k, want, need, given);
}

/* The passes that read each load: first_read and last_read over needs (npasses of them). */
static void
reads(const Kernel *k, const Plan *p, char *const *needs, int *first, int *last)
{
	for (int i = 0; i < k->nins; i++)
		last[i] = first ? (first[i] = -1) : -1;
	for (int s = 0; s < p->npasses; s++)
		for (int i = 0; i < k->nins; i++)
			if (needs[s][i] && k->ins[i].op == OP_LOAD) {
				last[i] = s;
				if (first && first[i] < 0)
					first[i] = s;
			}
}

/* What each pass evaluates per chunk (pass_need). */
static void
assign_need(const Kernel *k, Plan *p, Arena *a)
{
	int ni = k->nins;
	p->need = arena_alloc(a, (size_t)(p->npasses + 1) * (ni + 1));
	p->last_read = arena_alloc(a, sizeof(int) * (ni + 1));
	p->first_read = arena_alloc(a, sizeof(int) * (ni + 1));
	char *want = arena_alloc(a, k->nvals + 1);
	char **needs = arena_alloc(a, sizeof(char *) * (p->npasses + 1));
	for (int s = 0; s < p->npasses; s++) {
		needs[s] = p->need + (size_t)s * (ni + 1);
		pass_need(k, p, s, want, needs[s], NULL);
	}
	reads(k, p, needs, p->first_read, p->last_read);
	for (int i = 0; i < ni; i++)
		p->nreread += p->last_read[i] > p->first_read[i] &&
			      k->params[k->ins[i].param].shape == SH_TILE;
}

/* The reduction results the [M] operands of the colsums' cone are made from (Plan.rowval): a
 * walk back from those operands through [M] instructions, stopping at reductions. */
static void
assign_rowvals(const Kernel *k, Plan *p, Arena *a)
{
	char *want = arena_alloc(a, k->nvals + 1);
	for (int i = 0; i < k->nins; i++)
		for (int j = 0; p->need_colsum[i] && j < k->ins[i].nargs; j++) {
			int v = argval(&k->ins[i], j);
			if (v >= 0 && !shape_has_n(k->vals[v].shape))
				want[v] = 1;
		}
	p->rowval = arena_alloc(a, sizeof(int) * (k->nvals + 1));
	for (int i = k->nins - 1; i >= 0; i--) {
		const Instr *in = &k->ins[i];
		for (int r = 0; r < in->nres; r++) {
			int v = in->res[r];
			if (v < 0 || !want[v])
				continue;
			if (op_is_reduce(in->op)) {
				p->rowval[p->nrowval++] = v;
				continue;
			}
			for (int j = 0; j < in->nargs; j++) {
				int u = argval(in, j);
				if (u >= 0 && !shape_has_n(k->vals[u].shape))
					want[u] = 1;
			}
		}
	}
	/* in program order, so that the workspace's layout follows the text */
	for (int x = 0, y = p->nrowval - 1; x < y; x++, y--) {
		int t = p->rowval[x];
		p->rowval[x] = p->rowval[y];
		p->rowval[y] = t;
	}
}

/* The colsums' cone (need_colsum), and their own pass (Plan.colsum_alone): possible where none
 * needs a row reduction; else the row values the column pass reads back (assign_rowvals). */
static void
assign_colsum(const Kernel *k, Plan *p, Arena *a)
{
	int ni = k->nins;
	if (!p->ncolsum)
		return;
	p->colsum_alone = 1;
	for (int i = 0; i < ni; i++)
		if (k->ins[i].op == OP_COLSUM && p->pass[i] != 0)
			p->colsum_alone = 0;
	char *want = arena_alloc(a, k->nvals + 1);
	p->need_colsum = arena_alloc(a, ni + 1);
	for (int i = 0; i < ni; i++)
		if (k->ins[i].op == OP_COLSUM) {
			p->need_colsum[i] = 1;
			if (argval(&k->ins[i], 0) >= 0)
				want[argval(&k->ins[i], 0)] = 1;
		}
	cone(k, want, p->need_colsum, NULL);
	p->need_colpass = p->need_colsum;
	p->apply_colsums = p->apply;
	for (int i = 0; i < ni; i++)
		if (p->pass[i] == p->nreduce && k->ins[i].op != OP_COLSUM)
			p->apply_colsums = 0;
	if (!p->colsum_alone) {
		assign_rowvals(k, p, a);
		return;
	}
	char *rows = arena_alloc(a, k->nvals + 1);
	p->need_rows = arena_alloc(a, ni + 1);
	for (int i = 0; i < ni; i++)
		p->need_rows[i] =
		    op_is_reduce(k->ins[i].op) ||
		    (k->ins[i].op == OP_STORE && !instr_is_colsum_store(k, &k->ins[i]));
	cone(k, rows, p->need_rows, NULL);
	p->colsum_whole = p->nreduce == 0;
	for (int i = 0; i < ni; i++)
		if (k->ins[i].op == OP_STORE && !instr_is_colsum_store(k, &k->ins[i]) &&
		    k->params[k->ins[i].param].shape != SH_TILE)
			p->colsum_whole = 0;
	if (!p->colsum_whole)
		return;
	p->need_colpass = arena_alloc(a, ni + 1);
	memcpy(p->need_colpass, p->need_colsum, ni + 1);
	for (int i = 0; i < ni; i++)
		p->need_colpass[i] |= plan_is_tile_store(k, &k->ins[i]);
	cone(k, want, p->need_colpass, NULL);
}

int
plan_colpass_stores(const Plan *p, const Kernel *k)
{
	for (int i = 0; p->colsum_whole && i < k->nins; i++)
		if (plan_is_tile_store(k, &k->ins[i]) &&
		    k->params[k->ins[i].param].shape == SH_TILE)
			return 1;
	return 0;
}

int
plan_colpass_words(const Plan *p, const Kernel *k, Type dtype)
{
	int w = 0;
	if (!p->need_colpass)
		return 0;
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		if (in->param < 0)
			continue;
		const Param *pa = &k->params[in->param];
		int sz = type_size(type_resolve(pa->type, dtype)), words = (sz + 3) / 4;
		int load = in->op == OP_LOAD || in->op == OP_GATHER;
		if (load && (in->op == OP_GATHER || pa->shape == SH_ROW))
			w += words; /* all loaded as the row is placed (lower_ready_uniform) */
		else if (pa->shape == SH_TILE && p->need_colpass[i] && (load || in->op == OP_STORE))
			/* the row's 64-bit address in the array, and a register an element
			 * it loads */
			w += 2 + (load ? 4 * words : 0);
	}
	return w;
}

int
plan_colpass_row_words(const Plan *p, const Kernel *k, Type dtype, int split)
{
	if (split)
		return plan_colpass_words(p, k, dtype);
	int w = 0;
	for (int i = 0; p->need_colpass && i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		if (!p->need_colpass[i] || in->op != OP_LOAD)
			continue;
		const Param *pa = &k->params[in->param];
		w += pa->shape == SH_TILE ? type_size(type_resolve(pa->type, dtype)) : 1;
	}
	return w;
}

/* The instructions whose cost makes recomputing a value worth a round trip through shared
 * memory: a transcendental (ex2, lg2, sqrt, rcp and the like on the GPU) or a division. */
static int
costly(const Instr *in)
{
	switch (in->op) {
	case OP_EXP:
	case OP_LOG:
	case OP_SQRT:
	case OP_RSQRT:
	case OP_SIGMOID:
	case OP_SILU:
	case OP_TANH:
	case OP_ERF:
	case OP_POW:
	case OP_DIV:
		return 1;
	default:
		return 0;
	}
}

/*
 * The stash (stash=1, rows kept on chip): the apply pass needs values that the last reduction
 * pass computed over the same chunk, and recomputes them from the kept rows. Under the stash the
 * last reduction pass stores each of them, f32, in shared memory beside the kept rows, and the
 * apply pass's body chunks read them back, as a thread reads back a kept row: the same thread, the
 * same place, no barrier. They are the values of both passes' needs that an instruction of the
 * apply pass alone reads (a store of the apply pass, or an instruction that needs the last pass's
 * results), f32 and [M,N] only; the apply pass then evaluates the cone of its stores cut there.
 * Kept only where the cut spares a transcendental or a division an element: fused_linear_jsd's
 * apply pass reads g and q and no longer computes two exps and a log (docs/codegen.md, "The
 * stash"). A stashed value's users in the apply pass come after it, so no cut instruction is
 * needed again: the cut is exact.
 */
static void
assign_stash(const Kernel *k, Plan *p, Arena *a)
{
	int ni = k->nins;
	p->stash = arena_alloc(a, ni + 1);
	p->stash_last_read = p->last_read;
	if (!p->apply || p->nreduce < 1)
		return;
	const char *last = plan_need(p, k, p->nreduce - 1), *apply = plan_need(p, k, p->nreduce);
	for (int j = 0; j < ni; j++) {
		const Instr *u = &k->ins[j];
		if (!apply[j] || last[j])
			continue;
		for (int x = 0; x < u->nargs; x++) {
			int v = argval(u, x), i = v >= 0 ? k->vals[v].def : -1;
			if (i >= 0 && last[i] && apply[i] && k->ins[i].op != OP_LOAD &&
			    k->ins[i].op != OP_COL && k->vals[v].type == TY_F32 &&
			    k->vals[v].shape == SH_TILE)
				p->stash[i] = 1;
		}
	}
	char *want = arena_alloc(a, k->nvals + 1);
	p->need_stash = arena_alloc(a, ni + 1);
	pass_need(k, p, p->nreduce, want, p->need_stash, p->stash);
	for (int i = 0; i < ni; i++) {
		p->nstash += p->stash[i];
		if (apply[i] && !p->need_stash[i]) {
			p->stash_spared += costly(&k->ins[i]);
			p->stash_spared_ops++;
		}
	}
	if (!p->stash_spared) {
		memset(p->stash, 0, ni + 1);
		p->nstash = p->stash_spared_ops = 0;
		p->need_stash = NULL;
		return;
	}
	char **needs = arena_alloc(a, sizeof(char *) * (p->npasses + 1));
	for (int s = 0; s < p->npasses; s++)
		needs[s] = s == p->nreduce ? p->need_stash : p->need + (size_t)s * (ni + 1);
	p->stash_last_read = arena_alloc(a, sizeof(int) * (ni + 1));
	reads(k, p, needs, NULL, p->stash_last_read);
}

/*
 * The read-back (looped rows): a later pass needs a value that an earlier pass stored to an
 * [M,N] output (fused_add_rmsnorm's h = x + res, stored in the sum's pass and needed by the apply
 * pass), and recomputes it from its inputs, reading them from L2 or HBM again (or keeping them on
 * chip). The pass can load it back from the output instead (or keep the value on chip in their
 * place): the same thread stored it there, at the same columns, earlier in program order, so it
 * reads what it wrote. For pass s the values
 * stored in a pass before s are given (reload_at, where the cut cone still reads them), and the
 * pass evaluates its need cut there (need_reload). What it reads is the stored value, rounded to
 * the output's type: the value a framework's module computes with (h rounded to bf16 before the
 * norm), exact at fp32. Only f32 values stored to float outputs of 16 bits or more (an fp8 or
 * integer output would hand the later pass a value far from the one it computes), and only where
 * it reads fewer bytes (plan_reload_saves); the values loaded back are computed values, not loads.
 */
static void
assign_reload(const Kernel *k, Plan *p, Arena *a)
{
	int ni = k->nins, np = p->npasses;
	p->reload = arena_alloc(a, sizeof(int) * (ni + 1));
	p->reload_last_read = p->last_read;
	for (int i = 0; i < ni; i++) {
		const Instr *st = &k->ins[i];
		int v = plan_is_tile_store(k, st) ? argval(st, 0) : -1;
		int d = v >= 0 ? k->vals[v].def : -1;
		Type t = st->op == OP_STORE ? k->params[st->param].type : TY_COUNT;
		int wide = t == TY_T || t == TY_F32 || t == TY_BF16 || t == TY_F16;
		if (d >= 0 && wide && k->ins[d].op != OP_LOAD && k->ins[d].op != OP_COL &&
		    k->vals[v].type == TY_F32 && k->vals[v].shape == SH_TILE && !p->reload[d])
			p->reload[d] = i + 1;
	}
	p->reload_at = arena_alloc(a, (size_t)np * (ni + 1));
	p->need_reload = arena_alloc(a, (size_t)np * (ni + 1));
	char *want = arena_alloc(a, k->nvals + 1), *given = arena_alloc(a, ni + 1);
	char **needs = arena_alloc(a, sizeof(char *) * (np + 1));
	for (int s = 0; s < np; s++) {
		char *at = p->reload_at + (size_t)s * (ni + 1);
		needs[s] = p->need_reload + (size_t)s * (ni + 1);
		for (int i = 0; i < ni; i++)
			given[i] = p->reload[i] && p->pass[p->reload[i] - 1] < s;
		pass_need(k, p, s, want, needs[s], given);
		for (int i = 0; i < ni; i++) {
			at[i] = given[i] && k->ins[i].res[0] >= 0 && want[k->ins[i].res[0]];
			p->nreload += at[i];
		}
	}
	/* reload now names only the values some pass loads back */
	for (int i = 0; i < ni; i++) {
		int used = 0;
		for (int s = 0; s < np; s++)
			used |= p->reload_at[(size_t)s * (ni + 1) + i];
		p->reload[i] = used ? p->reload[i] : 0;
	}
	if (!p->nreload)
		return;
	p->reload_last_read = arena_alloc(a, sizeof(int) * (ni + 1));
	reads(k, p, needs, NULL, p->reload_last_read);
}

/* plan_reload_saves for pass s alone. */
static int
reload_pass(const Plan *p, const Kernel *k, int s, Type dtype)
{
	if (!p->nreload || s < 1 || s >= p->npasses)
		return 0;
	const char *need = plan_need(p, k, s);
	const char *cut = p->need_reload + (size_t)s * (k->nins + 1);
	const char *at = p->reload_at + (size_t)s * (k->nins + 1);
	int n = 0;
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		if (in->op == OP_LOAD && k->params[in->param].shape == SH_TILE && need[i] &&
		    !cut[i])
			n += type_size(type_resolve(k->params[in->param].type, dtype));
		if (at[i])
			n -= type_size(
			    type_resolve(k->params[k->ins[p->reload[i] - 1].param].type, dtype));
	}
	return n;
}

int
plan_reload_saves(const Plan *p, const Kernel *k, Type dtype)
{
	int n = 0;
	for (int s = 1; s < p->npasses; s++)
		n += reload_pass(p, k, s, dtype);
	return n;
}

int
plan_reads_back(const Plan *p, const Kernel *k, Type dtype)
{
	return !p->nstash && plan_reload_saves(p, k, dtype) > 0;
}

const int *
plan_last_reads(const Plan *p, const Kernel *k, Type dtype, int stash)
{
	return stash			      ? p->stash_last_read
	       : plan_reads_back(p, k, dtype) ? p->reload_last_read
					      : p->last_read;
}

int
plan_row_deferrable(const Kernel *k, const Instr *in)
{
	if (op_is_reduce(in->op) || in->op == OP_COLSUM || plan_is_tile_store(k, in))
		return 0;
	for (int r = 0; r < in->nres; r++)
		if (in->res[r] >= 0 && shape_has_n(k->vals[in->res[r]].shape))
			return 0;
	/* a discarded result has no shape to say so: its operands do */
	for (int j = 0; j < in->nargs; j++)
		if (in->args[j].kind == ARG_VAL && shape_has_n(k->vals[in->args[j].idx].shape))
			return 0;
	return 1;
}

/* The exchanges a persistent row makes, and before each instruction how many it has made
 * (exchange): lower_persistent (codegen/lower_rows.c) lowers the body in program order and
 * combines its pending reductions across threads when an instruction needs a row value (not
 * N-shaped) that is not yet known, and once at the end; an instruction of row values only
 * (plan_row_deferrable) that waits is put off to the next exchange instead, so a mean computed
 * between two reductions does not make an exchange of its own. An online max/sum pair, one level
 * looped, is two here (the sum's operand waits for the max). */
static int
row_exchanges(const Kernel *k, int *exchange, int *last, Arena *a)
{
	enum { UNKNOWN, KNOWN, PENDING }; /* a row value: PENDING until the next exchange */
	char *st = arena_alloc(a, (size_t)k->nvals + 1);
	int pending = 0, n = 0;
	*last = -1;
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		int waits = 0;
		for (int j = 0; j < in->nargs; j++) {
			const Arg *a = &in->args[j];
			waits |= a->kind == ARG_VAL && !shape_has_n(k->vals[a->idx].shape) &&
				 st[a->idx] != KNOWN;
		}
		int later = waits && plan_row_deferrable(k, in);
		if (waits && !later && pending) {
			n++;
			*last = i;
			pending = 0;
			for (int v = 0; v < k->nvals; v++)
				st[v] = st[v] == PENDING ? KNOWN : st[v];
		}
		exchange[i] = n + later; /* put off: it runs after the exchange it waits for */
		for (int r = 0; r < in->nres; r++)
			if (in->res[r] >= 0 && !shape_has_n(k->vals[in->res[r]].shape))
				st[in->res[r]] = op_is_reduce(in->op) || later ? PENDING : KNOWN;
		pending |= op_is_reduce(in->op);
	}
	if (pending)
		*last = -1; /* the last exchange is at the end: no tail */
	return n + pending;
}

/* The first instruction that uses value v, or -1. */
static int
first_use(const Kernel *k, int v)
{
	for (int i = k->vals[v].def + 1; i < k->nins; i++)
		for (int j = 0; j < k->ins[i].nargs; j++)
			if (k->ins[i].args[j].kind == ARG_VAL && k->ins[i].args[j].idx == v)
				return i;
	return -1;
}

/* Whether value v is a tile load whose first use is in the tail (from instruction `from` on): it
 * is issued there, a vector at a time under steps=1. */
static int
tail_load(const Kernel *k, int v, int from)
{
	return k->ins[k->vals[v].def].op == OP_LOAD && shape_has_n(k->vals[v].shape) &&
	       first_use(k, v) >= from;
}

static int
count_tail_loads(const Kernel *k, int from)
{
	int n = 0;
	for (int v = 0; v < k->nvals; v++)
		n += tail_load(k, v, from);
	return n;
}

const Plan *
plan_build(const Kernel *k, Arena *a)
{
	Plan *p = arena_alloc(a, sizeof *p);
	p->lvl = arena_alloc(a, sizeof(int) * (k->nvals + 1));
	p->pass = arena_alloc(a, sizeof(int) * (k->nins + 1));
	p->fused = arena_alloc(a, sizeof(int) * (k->nins + 1));
	char *taken = arena_alloc(a, k->nins + 1);
	assign_passes(k, p, taken);
	assign_need(k, p, a);
	assign_stash(k, p, a);
	assign_reload(k, p, a);
	assign_colsum(k, p, a);
	p->split_ok = p->nreduce == 1 && !p->nonline && !p->nstores && !p->ncolsum;
	p->exchange = arena_alloc(a, sizeof(int) * (k->nins + 1));
	p->row_exchanges = row_exchanges(k, p->exchange, &p->tail, a);
	if (p->ncolsum)
		p->tail = -1;
	p->tail_loads = p->tail >= 0 ? count_tail_loads(k, p->tail) : 0;
	return p;
}

const char *
plan_need(const Plan *p, const Kernel *k, int pass)
{
	return pass >= 0 && pass < p->npasses ? p->need + (size_t)pass * (k->nins + 1) : NULL;
}

const char *
plan_need_body(const Plan *p, const Kernel *k, int pass, int stash)
{
	return stash && p->nstash && pass == p->nreduce ? p->need_stash : plan_need(p, k, pass);
}

int
plan_last_read(const Plan *p, int i, int stash)
{
	return (stash ? p->stash_last_read : p->last_read)[i];
}

const char *
plan_no_split(const Plan *p)
{
	return p->split_ok	? "nothing against it"
	       : p->nstores	? "a full-width ([N] or [M,N]) output"
	       : p->ncolsum	? "a sum over rows (colsum)"
	       : p->nreduce > 1 ? "dependent reductions"
	       : p->nonline	? "an online max/sum pair"
				: "no reduction";
}

int
plan_streams(const Plan *p, int persistent)
{
	return persistent ? p->npasses > 0 : p->npasses;
}

void
plan_print(Buf *b, const Kernel *k, const Plan *p)
{
	buf_printf(b,
		   "plan %s: %d pass(es) looped (%d reduction, %s apply), %d online, split %s; "
		   "persistent: %d exchange(s)\n",
		   k->name, p->npasses, p->nreduce, p->apply ? "1" : "no", p->nonline,
		   p->split_ok ? "ok" : "no", p->row_exchanges);
	for (int s = 0; s < p->npasses; s++) {
		buf_printf(b, "  pass %d:", s);
		for (int i = 0; i < k->nins; i++) {
			const Instr *in = &k->ins[i];
			if (p->pass[i] != s)
				continue;
			if (in->op == OP_STORE)
				buf_printf(b, " store %s", k->params[in->param].name);
			else
				buf_printf(b, " %s%s", op_info[in->op].name,
					   p->fused[i] >= 0 ? "(online)" : "");
		}
		buf_puts(b, "; reads");
		const char *need = plan_need(p, k, s);
		for (int i = 0; i < k->nins; i++)
			if (need[i] && k->ins[i].op == OP_LOAD)
				buf_printf(b, " %s", k->params[k->ins[i].param].name);
		buf_puts(b, "\n");
	}
	if (p->tail >= 0) {
		const Instr *t = &k->ins[p->tail];
		if (t->nres > 0 && t->res[0] >= 0)
			buf_printf(b, "  persistent tail: from %%%s on, first reads",
				   k->vals[t->res[0]].name);
		else
			buf_printf(b, "  persistent tail: from a %s on, first reads",
				   op_info[t->op].name);
		int n = 0;
		for (int v = 0; v < k->nvals; v++)
			if (tail_load(k, v, p->tail)) {
				buf_printf(b, " %s", k->params[k->ins[k->vals[v].def].param].name);
				n++;
			}
		buf_puts(b, n ? "\n" : " no input\n");
	}
	if (p->ncolsum && !p->colsum_alone) {
		buf_puts(b, "  colsums: one needs a row reduction, so none has a pass of its own; "
			    "the column pass reads");
		for (int i = 0; i < k->nins; i++)
			if (p->need_colsum[i] && k->ins[i].op == OP_LOAD)
				buf_printf(b, " %s", k->params[k->ins[i].param].name);
		buf_puts(b, " and the row values");
		for (int r = 0; r < p->nrowval; r++)
			buf_printf(b, " %%%s", k->vals[p->rowval[r]].name);
		buf_puts(b, "\n");
	}
	if (p->colsum_alone) {
		buf_puts(b, "  colsums: a pass of their own reads");
		for (int i = 0; i < k->nins; i++)
			if (p->need_colsum[i] && k->ins[i].op == OP_LOAD)
				buf_printf(b, " %s", k->params[k->ins[i].param].name);
		buf_puts(b, "\n");
	}
	if (p->colsum_whole)
		buf_puts(b,
			 "  colsums: no row reduction, so the column pass can make every store\n");
	for (int s = 1; p->nreload && s < p->npasses; s++) {
		const char *at = p->reload_at + (size_t)s * (k->nins + 1);
		const char *cut = p->need_reload + (size_t)s * (k->nins + 1);
		int any = 0;
		for (int i = 0; i < k->nins; i++)
			any |= at[i];
		if (!any)
			continue;
		buf_printf(b, "  read back in pass %d:", s);
		for (int i = 0; i < k->nins; i++)
			if (at[i])
				buf_printf(b, " %%%s (from %s)", k->vals[k->ins[i].res[0]].name,
					   k->params[k->ins[p->reload[i] - 1].param].name);
		int nread = 0;
		buf_puts(b, "; then reads");
		for (int i = 0; i < k->nins; i++)
			if (cut[i] && k->ins[i].op == OP_LOAD) {
				buf_printf(b, " %s", k->params[k->ins[i].param].name);
				nread++;
			}
		buf_puts(b, nread ? "\n" : " no input\n");
	}
	if (!p->nstash)
		return;
	buf_puts(b, "  stash:");
	for (int i = 0; i < k->nins; i++)
		if (p->stash[i])
			buf_printf(b, " %%%s", k->vals[k->ins[i].res[0]].name);
	buf_printf(b,
		   " (the apply pass spares %d instruction(s), %d a transcendental or a division); "
		   "then reads",
		   p->stash_spared_ops, p->stash_spared);
	int nread = 0;
	for (int i = 0; i < k->nins; i++)
		if (p->need_stash[i] && k->ins[i].op == OP_LOAD) {
			buf_printf(b, " %s", k->params[k->ins[i].param].name);
			nread++;
		}
	buf_puts(b, nread ? "\n" : " no input\n");
}
