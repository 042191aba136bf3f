/* Liveness: Helion's live-tile count, the tiles a persistent thread holds, and registers. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

static int
argval(const Instr *in, int i)
{
	return in->args[i].kind == ARG_VAL ? in->args[i].idx : -1;
}

/* last[v]: the index of v's last use, or its definition when unused. */
static int *
last_uses(const Kernel *k)
{
	int *last = malloc(sizeof(int) * (k->nvals + 1));
	for (int v = 0; v < k->nvals; v++)
		last[v] = k->vals[v].def;
	for (int i = 0; i < k->nins; i++)
		for (int a = 0; a < k->ins[i].nargs; a++)
			if (argval(&k->ins[i], a) >= 0)
				last[argval(&k->ins[i], a)] = i;
	return last;
}

int
live_helion(const Kernel *k)
{
	int *last = last_uses(k);
	char *live = calloc(k->nvals + 1, 1);
	int n = 0, peak = 0;
	for (int i = 0; i < k->nins; i++) {
		for (int r = 0; r < k->ins[i].nres; r++) {
			int v = k->ins[i].res[r];
			if (v >= 0 && shape_has_n(k->vals[v].shape)) {
				live[v] = 1;
				n++;
			}
		}
		peak = n > peak ? n : peak;
		for (int v = 0; v < k->nvals; v++)
			if (live[v] && last[v] <= i) {
				live[v] = 0;
				n--;
			}
	}
	free(last);
	free(live);
	return peak > 1 ? peak : 1;
}

static int
is_elementwise(Op op)
{
	return op == OP_CAST || op_is_unary(op) || op_is_binary(op) || op_is_compare(op) ||
	       op == OP_SELECT || op == OP_CLAMP;
}

static int
value_words(const Kernel *k, int v, Type dtype)
{
	return type_size(type_resolve(k->vals[v].type, dtype)) == 8 ? 2 : 1;
}

/*
 * The persistent codegen keeps each thread's slice of the row in registers and reduces it at
 * every reduction, a barrier across the row's threads. Between two barriers the elementwise work
 * runs element by element, so only values that cross a barrier are held whole. At a barrier b,
 * out(b) is the set of rdim values defined by then and used after it, less those an elementwise
 * op recomputes from other members of the set. A load counts from its first use (it can issue
 * anywhere: inputs are read-only). Within segment s, held(s) = in(s) ∪ out(s) where in(s) is the
 * previous out plus the loads first used in s; values of in(s) that die and values of out(s) that
 * are born trade places element by element, so the peak is |in ∩ out| + max(|in \ out|, |out
 * \ in|).
 */
int
live_held(const Kernel *k, Type dtype, int *words)
{
	int nv = k->nvals;
	int *last = last_uses(k);
	int *pos = malloc(sizeof(int) * (nv + 1));
	char *in = calloc(nv + 1, 1), *out = calloc(nv + 1, 1);
	for (int v = 0; v < nv; v++) {
		pos[v] = k->vals[v].def;
		if (k->ins[pos[v]].op == OP_LOAD)
			for (int i = pos[v] + 1; i < k->nins; i++) {
				int used = 0;
				for (int a = 0; a < k->ins[i].nargs; a++)
					used |= argval(&k->ins[i], a) == v;
				if (used) {
					pos[v] = i;
					break;
				}
			}
	}

	int peak_n = 0, peak_w = 0, prev = -1;
	for (int b = 0; b <= k->nins; b++) {
		if (b < k->nins && !op_is_reduce(k->ins[b].op))
			continue;
		/* in: what the previous barrier held, plus loads first used in this segment */
		for (int v = 0; v < nv; v++)
			if (shape_has_n(k->vals[v].shape) && k->ins[k->vals[v].def].op == OP_LOAD &&
			    pos[v] > prev && pos[v] <= b)
				in[v] = 1;
		memset(out, 0, nv + 1);
		for (int v = 0; b < k->nins && v < nv; v++)
			out[v] = shape_has_n(k->vals[v].shape) && pos[v] <= b && last[v] > b;
		for (int v = nv - 1; v >= 0; v--) {
			const Instr *d = &k->ins[k->vals[v].def];
			if (!out[v] || !is_elementwise(d->op))
				continue;
			int remat = 1;
			for (int a = 0; a < d->nargs; a++) {
				int u = argval(d, a);
				remat &= u < 0 || !shape_has_n(k->vals[u].shape) || out[u];
			}
			out[v] = !remat;
		}
		int both[2] = {0}, in_only[2] = {0}, out_only[2] = {0};
		for (int v = 0; v < nv; v++) {
			int w = value_words(k, v, dtype);
			int *c = in[v] && out[v] ? both
				 : in[v]	 ? in_only
				 : out[v]	 ? out_only
						 : NULL;
			if (c) {
				c[0]++;
				c[1] += w;
			}
		}
		int n = both[0] + (in_only[0] > out_only[0] ? in_only[0] : out_only[0]);
		int w = both[1] + (in_only[1] > out_only[1] ? in_only[1] : out_only[1]);
		peak_n = n > peak_n ? n : peak_n;
		peak_w = w > peak_w ? w : peak_w;
		memcpy(in, out, nv + 1);
		prev = b;
	}
	free(last);
	free(pos);
	free(in);
	free(out);
	*words = peak_w;
	return peak_n;
}

/* 32-bit words a thread holds: the held tiles' slices when persistent. When looped, one chunk of
 * every load of the widest pass, but at least 3/5 of the kernel's Helion-style live tiles (ptxas
 * overlaps the unrolled chunk's elementwise work, and the temporaries of a long chain such as jsd's
 * outgrow its loads), plus the pass's scalar partials. With scalar accesses (vec 1, so N is odd
 * and the row's tail is masked) each element adds a predicate. */
static int64_t
thread_words(const Facts *f, int persistent, int64_t ept, int vec)
{
	int64_t masks = vec == 1 ? ept : 0;
	if (persistent)
		return (int64_t)f->held_words * ept + masks;
	int64_t best = 0;
	for (int p = 0; p < f->passes && p < MAX_PASSES; p++) {
		int chain = (3 * f->helion_live + 4) / 5;
		int words = f->pass_words[p] > chain ? f->pass_words[p] : chain;
		int64_t w = (int64_t)words * ept + f->pass_partials[p];
		best = w > best ? w : best;
	}
	return best + masks;
}

int64_t
live_bytes_thread(const Facts *f, int persistent, int64_t ept, int vec)
{
	return 4 * thread_words(f, persistent, ept, vec);
}

/* REG_BASE covers thread and row indices, N, masks and loop state; each array needs a 64-bit
 * address; [M] values and params take one register each, beside the tiles while reductions run,
 * alone in an [M] epilogue. */
int
regs_predict(const Facts *f, int persistent, int64_t ept, int vec)
{
	int64_t body = f->row_regs + thread_words(f, persistent, ept, vec);
	int64_t r = REG_BASE + 2 * f->nptrs + (body > f->row_peak ? body : f->row_peak);
	return r > 1 << 20 ? 1 << 20 : (int)r;
}
