/* Liveness: Helion's live-tile count, the tiles a persistent thread holds, and registers. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

/* The source position of each instruction (Instr.src, where order_stores has set a permutation;
 * else the order it is in). */
static int *
source_order(const Kernel *k)
{
	int ni = k->nins, *src = malloc(sizeof(int) * (ni + 1));
	char *seen = calloc(ni + 1, 1);
	int perm = 1;
	for (int i = 0; i < ni && perm; i++) {
		int s = k->ins[i].src;
		perm = s >= 0 && s < ni && !seen[s];
		if (perm)
			seen[s] = 1;
	}
	for (int i = 0; i < ni; i++)
		src[i] = perm ? k->ins[i].src : i;
	free(seen);
	return src;
}

/* Helion's count is of the program as written: the statements in their source order, before
 * order_stores moved any store. */
int
live_helion(const Kernel *k)
{
	int ni = k->nins, *src = source_order(k);
	int *at = malloc(sizeof(int) * (ni + 1)), *last = malloc(sizeof(int) * (k->nvals + 1));
	for (int i = 0; i < ni; i++)
		at[src[i]] = i;
	for (int v = 0; v < k->nvals; v++)
		last[v] = src[k->vals[v].def];
	for (int i = 0; i < ni; i++)
		for (int a = 0; a < k->ins[i].nargs; a++)
			if (argval(&k->ins[i], a) >= 0 && last[argval(&k->ins[i], a)] < src[i])
				last[argval(&k->ins[i], a)] = src[i];
	char *live = calloc(k->nvals + 1, 1);
	int n = 0, peak = 0;
	for (int s = 0; s < ni; s++) {
		const Instr *in = &k->ins[at[s]];
		for (int r = 0; r < in->nres; r++) {
			int v = in->res[r];
			if (v >= 0 && shape_has_n(k->vals[v].shape)) {
				live[v] = 1;
				n++;
			}
		}
		peak = n > peak ? n : peak;
		for (int v = 0; v < k->nvals; v++)
			if (live[v] && last[v] <= s) {
				live[v] = 0;
				n--;
			}
	}
	free(src);
	free(at);
	free(last);
	free(live);
	return peak > 1 ? peak : 1;
}

/* col has no operands: recomputed from the thread's column wherever it is used, never held */
static int
is_elementwise(Op op)
{
	return op == OP_CAST || op == OP_COL || op_is_unary(op) || op_is_binary(op) ||
	       op_is_compare(op) || op == OP_SELECT || op == OP_CLAMP;
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
	int *last = kernel_last_uses(k);
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
		/* a colsum's partial is held from the first row to the last: across every barrier
		 */
		for (int v = 0; b < k->nins && v < nv; v++)
			out[v] = (shape_has_n(k->vals[v].shape) && pos[v] <= b && last[v] > b) ||
				 k->ins[k->vals[v].def].op == OP_COLSUM;
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

/*
 * The model's constants, calibrated against ptxas over the sweep (docs/regmodel.md):
 * TEMP_HELD, TEMP_CHUNK: how far from the element-wise peak towards the program-order one ptxas
 * lands, persistent and looped (stretch_peak); HELD_PCT: the share of the persistent peak it
 * keeps at once (with the whole row in view it interleaves segments' ends and starts too);
 * REG_LOOP (analysis.h): the looped kernel's extra scalars (chunk index, bounds, next addresses).
 * An array's 64-bit address costs one register, not two: ptxas keeps the base in the constant
 * bank and forms the address next to its access, so only part of them are live at once.
 * CAP_BASE and CAP_CHUNK_PCT: what ptxas keeps under a register cap (regs_capped).
 */
enum { TEMP_HELD = 30, TEMP_CHUNK = 80, HELD_PCT = 90, CAP_BASE = 12, CAP_CHUNK_PCT = 85 };

/* ptxas unrolls a short loop UNROLL times and issues every copy's loads before their adds: the
 * combine's slice loop (regs_combine). */
enum { UNROLL = 4 };

/* Bytes an element of v takes in a register: its storage type for a load (ptxas converts it at
 * each use), else 4, or 8 for 64-bit values. A byte-wide integer or bool load counts 2: ptxas cuts
 * each element out of its word into a 16-bit register (cvt.s8) before it converts it. Fitted with
 * `ptx_suite sweep --kernels bench/heldout` (ptxas 13.0, sm_90) on dequant.rk, an i8 input:
 * its persistent rows came out 5% high on average at 2 and 19% high at 4; at 1 (and its stores as
 * written) 6% low, and 86 registers where ptxas took 167 at 64 elements a thread
 * (docs/regmodel.md, "Kernels the model was not fitted on"). */
static int
elem_bytes(const Kernel *k, int v, Type dtype, int raw)
{
	Type t = type_resolve(k->vals[v].type, dtype);
	int sz = type_size(t);
	if (raw && sz == 1 && !type_is_float(t))
		return 2;
	return raw ? sz : sz == 8 ? 8 : 4;
}

static int
is_load(const Kernel *k, int v)
{
	return k->ins[k->vals[v].def].op == OP_LOAD;
}

/*
 * The byte peak of one stretch of the body, walked in program order, an instruction at a time
 * over all of a thread's elements (as the codegen emits it). in[i] marks the stretch's
 * instructions; seg[i] numbers the barriers before instruction i (persistent) or is 0 (a looped
 * chunk). A load issues at the start of the segment of its first use and, while it dies in that
 * segment, stays in its storage type; a value kept across a barrier is f32. A segment that stores
 * nothing and hands nothing on is a reduction's tail: ptxas folds each load into the partial as
 * it arrives instead of holding the row, so its values count half.
 *
 * Two peaks bound what ptxas does: every value as the program orders it (peak[0]), and only the
 * loads and the values crossing a barrier, as if ptxas ran the segment's arithmetic an element
 * at a time (peak[1]). It lands between them, temp percent of the way up: nearer the element-wise
 * bound when it has the whole row to interleave (persistent), nearer the program order in a
 * short unrolled chunk. The result is in quarter bytes per element. *folded, where asked, says
 * whether every load is folded so (a pure reduction: heuristics/cost.c prices the loads that
 * wait on each other then).
 *
 * tail: the segment of a persistent row's tail lowered a vector at a time (steps=1, Plan.tail),
 * whose own values and first loads are left out (a vector's worth is a few registers), or -1.
 *
 * spare: ptxas has registers to spare (regs_predict), or works under a cap (regs_capped). Under
 * a cap a value computed from the column, row values and scalars alone (argmax's column
 * index as f32, the one-hot compare of cross_entropy_backward) is recomputed where a later segment
 * uses it, not held across the exchange: LLVM computes argmax's column casts before the max's
 * exchange and ptxas holds them, 54 registers at 16 elements a thread where the row alone counts
 * 38, but at 64-128 elements it fits in 95-214 where holding them would take 150-280.
 */
static int
stretch_peak(const Kernel *k, Type dtype, const char *in, const int *seg, int tail, int temp,
	     int spare, int *folded)
{
	int nv = k->nvals, ni = k->nins;
	int *start = malloc(sizeof(int) * (nv + 1)), *end = malloc(sizeof(int) * (nv + 1));
	int *bytes = calloc(nv + 1, sizeof(int));
	char *open = calloc(ni + 2, 1); /* per segment: a value crosses its barrier or it stores */
	char *col = calloc(nv + 1, 1);	/* computed from the column, row values and scalars alone */
	for (int v = 0; v < nv; v++) {
		const Instr *x = &k->ins[k->vals[v].def];
		col[v] = shape_has_n(k->vals[v].shape) && is_elementwise(x->op);
		for (int a = 0; col[v] && a < x->nargs; a++) {
			int u = argval(x, a);
			col[v] = u < 0 || !shape_has_n(k->vals[u].shape) || (u < v && col[u]);
		}
	}
	for (int v = 0; v < nv; v++) {
		start[v] = end[v] = -1;
		if (!shape_has_n(k->vals[v].shape) || !in[k->vals[v].def])
			continue;
		int d = k->vals[v].def, first = -1;
		end[v] = d;
		for (int i = d + 1; i < ni; i++)
			for (int a = 0; in[i] && a < k->ins[i].nargs; a++)
				if (argval(&k->ins[i], a) == v &&
				    (spare || !col[v] || seg[i] == seg[d])) {
					first = first < 0 ? i : first;
					end[v] = i;
				}
		start[v] = d;
		if (is_load(k, v) && first >= 0)
			for (start[v] = first; start[v] > 0 && seg[start[v] - 1] == seg[first];)
				start[v]--;
		if (k->ins[d].op ==
		    OP_COLSUM) /* its partial lives from the first row to the last */
			start[v] = 0, end[v] = ni - 1;
		if (tail >= 0 && seg[start[v]] == tail) {
			start[v] = end[v] = -1; /* made a vector at a time: a few registers */
			continue;
		}
		int raw = is_load(k, v) && (first < 0 || seg[end[v]] == seg[first]);
		bytes[v] = elem_bytes(k, v, dtype, raw);
		for (int s = seg[start[v]]; s < seg[end[v]]; s++)
			open[s] = 1;
	}
	for (int i = 0; i < ni; i++)
		if (in[i] && k->ins[i].op == OP_STORE &&
		    shape_has_n(k->params[k->ins[i].param].shape))
			open[seg[i]] = 1;
	/* every load dies in its segment, and the segment neither stores nor hands anything on */
	int loads = 0, folds = 0;
	for (int v = 0; v < nv; v++)
		if (start[v] >= 0 && is_load(k, v)) {
			loads++;
			folds += seg[start[v]] == seg[end[v]] && !open[seg[start[v]]];
		}
	if (folded)
		*folded = loads > 0 && folds == loads;
	int peak[2] = {0, 0};
	for (int i = 0; i < ni; i++) {
		int b[2] = {0, 0};
		for (int v = 0; v < nv; v++)
			if (start[v] >= 0 && start[v] <= i && (end[v] > i || k->vals[v].def == i)) {
				int cross = seg[start[v]] != seg[end[v]];
				int w = cross || open[seg[i]] ? 2 * bytes[v] : bytes[v];
				b[0] += w;
				b[1] += is_load(k, v) || cross ? w : 0;
			}
		for (int m = 0; m < 2; m++)
			peak[m] = b[m] > peak[m] ? b[m] : peak[m];
	}
	free(start);
	free(end);
	free(bytes);
	free(open);
	free(col);
	return (temp * peak[0] + (100 - temp) * peak[1]) / 50;
}

void
live_bytes_model(const Kernel *k, Facts *f)
{
	const Plan *plan = k->plan;
	int ni = k->nins;
	int *seg = calloc(ni + 1, sizeof(int));
	char *in = malloc(ni + 1);
	/* persistent: a segment a cross-thread exchange, as lower_persistent makes them: the
	 * reductions that wait on none of each other's results fold their partials in one walk over
	 * the row and share the exchange (plan.c, row_exchanges) */
	for (int i = 0; i < ni; i++)
		seg[i] = plan->exchange[i];
	memset(in, 1, ni + 1);
	f->held_bytes = stretch_peak(k, f->dtype, in, seg, -1, TEMP_HELD, 0, &f->folded);
	f->held_spare = stretch_peak(k, f->dtype, in, seg, -1, TEMP_HELD, 1, NULL);
	/* steps=1: what the tail makes and first reads lives a vector at a time */
	int tail = plan->tail >= 0 ? plan->exchange[plan->tail] : -1;
	f->held_bytes_steps = tail >= 0
				  ? stretch_peak(k, f->dtype, in, seg, tail, TEMP_HELD, 0, NULL)
				  : f->held_bytes;
	f->held_spare_steps = tail >= 0
				  ? stretch_peak(k, f->dtype, in, seg, tail, TEMP_HELD, 1, NULL)
				  : f->held_spare;
	/* smem=1: each colsum's operand is added into shared memory as it is made */
	for (int i = 0; i < ni; i++)
		in[i] = k->ins[i].op != OP_COLSUM;
	f->held_bytes_smem = plan->ncolsum
				 ? stretch_peak(k, f->dtype, in, seg, -1, TEMP_HELD, 0, NULL)
				 : f->held_bytes;
	f->held_spare_smem = plan->ncolsum
				 ? stretch_peak(k, f->dtype, in, seg, -1, TEMP_HELD, 1, NULL)
				 : f->held_spare;
	memset(in, 1, ni + 1);
	/* looped: one stretch a pass of the plan, what the pass evaluates per chunk and its
	 * reductions. An online sum's exp(t - m) is computed inside the reduction, after the
	 * chunk's max (a barrier within the chunk, at the pass's last fused max): its sub and exp
	 * are the chunk's temporaries too. A colsum's operand is added into shared memory as it is
	 * made (a looped row keeps its partials there). */
	f->loop_bytes = 0;
	for (int p = 0; p < plan->npasses; p++) {
		const char *need = plan_need(plan, k, p);
		int fmax = -1;
		for (int i = 0; i < ni; i++) {
			const Instr *x = &k->ins[i];
			in[i] = (need[i] && x->op != OP_COLSUM) ||
				(op_is_reduce(x->op) && plan->pass[i] == p);
			if (!in[i] || plan->fused[i] < 0)
				continue;
			const Instr *e = &k->ins[k->vals[argval(x, 0)].def];
			in[k->vals[argval(x, 0)].def] = 1;
			in[k->vals[argval(e, 0)].def] = 1;
			fmax = plan->fused[i];
		}
		for (int i = 0; i < ni; i++)
			seg[i] = fmax >= 0 && i > fmax;
		int slot = p < MAX_PASSES ? p : MAX_PASSES - 1;
		int b = stretch_peak(k, f->dtype, in, seg, -1, TEMP_CHUNK, 0, NULL);
		f->pass_bytes[slot] = b > f->pass_bytes[slot] ? b : f->pass_bytes[slot];
		f->loop_bytes = b > f->loop_bytes ? b : f->loop_bytes;
	}
	free(seg);
	free(in);
}

/* 32-bit words a thread holds: the peak bytes per element (persistent: of the whole body; looped:
 * of the widest pass's chunk, plus its scalar partials) times the elements a thread has. With
 * scalar accesses (vec 1) each element adds a predicate. spare: with registers to spare ptxas
 * keeps HELD_PCT of a persistent peak (stretch_peak's spare count) and all of a chunk; under a cap
 * the whole persistent peak must fit, and of a looped chunk it keeps CAP_CHUNK_PCT, issuing the
 * rest of the chunk's loads nearer their use: at 100% the model put 20 looped configs over a cap
 * that ptxas met without spilling (fused_add_layernorm and jsd f32 at 64 elements a chunk, 269-293
 * registers counted at a cap of 255). */
static int64_t
thread_words(const Facts *f, int persistent, int64_t ept, int vec, int spare)
{
	int64_t masks = vec == 1 ? ept : 0;
	if (persistent) {
		int64_t held = spare ? (int64_t)f->held_spare * ept * HELD_PCT / 100
				     : (int64_t)f->held_bytes * ept;
		return (held + 15) / 16 + masks;
	}
	int part = 0;
	int64_t bytes = 0;
	for (int p = 0; p < f->passes && p < MAX_PASSES; p++) {
		int64_t b = (int64_t)f->pass_bytes[p] * ept;
		bytes = b > bytes ? b : bytes;
		part = f->pass_partials[p] > part ? f->pass_partials[p] : part;
	}
	return ((spare ? bytes : bytes * CAP_CHUNK_PCT / 100) + 15) / 16 + part + masks;
}

int64_t
live_bytes_thread(const Facts *f, int persistent, int64_t ept, int vec)
{
	return 4 * thread_words(f, persistent, ept, vec, 1);
}

/* REG_BASE covers thread and row indices, N and masks, REG_LOOP a loop's state; each array an
 * address (one register, see above); [M] values and params one register each, beside the tiles
 * while reductions run, alone in an [M] epilogue. */
int
regs_predict(const Facts *f, int persistent, int64_t ept, int vec)
{
	int64_t body = f->row_regs + thread_words(f, persistent, ept, vec, 1);
	int64_t r = REG_BASE + (persistent ? 0 : REG_LOOP) + f->nptrs +
		    (body > f->row_peak ? body : f->row_peak);
	return r > 1 << 20 ? 1 << 20 : (int)r;
}

/* Under a cap ptxas gives up scalars before elements: it recomputes addresses, indices and row
 * values next to their uses and shortens the loop's state, so a capped thread needs CAP_BASE
 * registers of scalars and its row's words. Those are the whole persistent peak: HELD_PCT is
 * what ptxas keeps on average when it has registers to spare, but under a cap the peak itself
 * must fit. CAP_BASE is the one constant fitted to where ptxas stops fitting (docs/regmodel.md). */
int
regs_capped(const Facts *f, int persistent, int64_t ept, int vec)
{
	int64_t r = CAP_BASE + thread_words(f, persistent, ept, vec, 0);
	return r > 1 << 20 ? 1 << 20 : (int)r;
}

/* A row that starts misaligned is cut into a head, an aligned body and a tail (docs/codegen.md):
 * a persistent thread holds cdiv(2*(vec-1), tpr) edge elements beside its body, each with its
 * words and a predicate, and reads the body's [N] inputs element by element (a quarter register
 * an element and input), with EDGE_BASE more for the cut's bounds. Fitted to ptxas 13.0 (sm_90,
 * bf16, no cap) against each row's aligned neighbour at 9 kernels, rows of 4, 32 and 128 threads
 * and 8 and 32 elements a thread: 3 registers off on average, 16 under at the worst. The capped
 * count (regs_capped) adds the same: counting only the edge elements there let min_ctas bind
 * layer_norm fp32 1048576x129 to 128 registers, and it spilled (docs/regmodel.md, "Misaligned
 * rows"). */
enum { EDGE_BASE = 4 };

int
regs_edge(const Facts *f, int64_t ept, int vec, int tpr)
{
	if (vec <= 1 || tpr < 1)
		return 0; /* scalar accesses: every element already has its predicate */
	int64_t edge = (2 * (vec - 1) + tpr - 1) / tpr;
	int64_t words = (f->held_bytes + 15) / 16;
	int64_t r = edge * (words + 1) + (int64_t)f->nvec_loads * ept / 4 + EDGE_BASE;
	return r > 1 << 20 ? 1 << 20 : (int)r;
}

/*
 * The combine of sums over rows (codegen/lower_colsum.c) runs once a CTA after its rows, so what
 * it holds is a floor under the row's count, not added to it. A round trip of its slice loop
 * issues `loads` 16-byte loads of partial rows before it adds them into `turns` sums of 4 floats,
 * so ptxas holds 4 registers a load and 4 a turn beside COMBINE_SCALARS of the slice's positions,
 * bounds and 64-bit row offsets. A trip of at most COMBINE_SMALL loads is a short loop, UNROLL
 * copies of it in flight. Fitted to ptxas 13.0 (sm_90) on colonly and the backward norms, whose
 * rows hold little: 56, 72 and 91-93 registers at 1, 2 and 3 loads a trip, 55, 72 and 95-102 at
 * 5, 9 and 16; under a cap the scalars go down to CAP_BASE, so 16 loads spill at the 64 registers
 * of 32 warps and 9 fit (docs/regmodel.md, "A refit over both kernel sets").
 */
enum { COMBINE_SCALARS = 15, COMBINE_SMALL = 4 };

int
regs_combine(int loads, int turns, int capped)
{
	int held = loads <= COMBINE_SMALL ? UNROLL * loads : loads;
	return (capped ? CAP_BASE : REG_BASE + COMBINE_SCALARS) + 4 * (held + turns);
}
