/* Statement order: each [M,N] store and each colsum moves up to where its value is made or dies. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

/*
 * Codegen emits a row's statements in this order, over all of a thread's elements at a time, and
 * the register model walks the same order. A store written after a reduction of the value it
 * stores (`%y = mul %q, %w; %s = sum %y; store y, %y`) keeps the value, or what it is made from,
 * in registers across the reduction's adds: LLVM folds the adds into fmas and makes y again for
 * the store, so a thread held q and w as f32 (ptxas 140 registers at 64 elements a thread; 98
 * with the store moved up). Stored where it is made, the value is packed, stored and added, and
 * dies. An [M,N] store has no result and nothing reads an output in program order (a later pass
 * that reads one back follows the plan's passes, not the order), so moving it up changes nothing
 * but where it is made. Stores that follow the same statement keep their order; [M] stores stay
 * where they are (codegen makes them after the row's last reduction whatever their place).
 *
 * A colsum moves up too, to where its operand dies but for it, and before that value's stores.
 * Its result is read only after the last row, so only where its adds are made changes. Written
 * after a store of its operand and the row values that follow (moe_aux: `store p, %p`, then
 * lse^2, then `%ps = colsum %p`), a row of several a CTA masks each add with the row's test,
 * which LLVM merges with the stores' branches on the same test: the softmax was carried across
 * them, ptxas took 168 registers at 64 elements a thread where the same body without the colsum
 * took 95, and at the 128 of two CTAs an SM spilled 244 bytes. Added before the stores it fit in
 * 127 without a spill, 41.5 -> 26.8 us on an H200 (bench/results/h200-2026-12-04-colsum-order.md).
 * A colsum of a load that nothing else reads stays: a persistent row issues a load at its first
 * use, and moved up to the load the colsum would hold it across the exchanges between
 * (ln_bwd_recompute fp32: 108 registers -> 128).
 * Instr.src keeps each statement's place as written, for Helion's live-tile count.
 */
/* A store that moves: of an [M,N] value, into an [M,N] output. */
static int
store_moves(const Kernel *k, const Instr *in)
{
	return in->op == OP_STORE && k->params[in->param].shape == SH_TILE &&
	       in->args[0].kind == ARG_VAL;
}

/* Where statement i goes: after the statement at the returned index, or -1 where it stays. A
 * moving store goes after the statement making its value; a colsum of an [M,N] value after the
 * last statement before it that makes or reads the value (where the value dies but for the
 * colsum), unless that is a load read by nothing else: the colsum's place is then where the row
 * issues the load (a persistent row loads at first use), and up at the load it would be held
 * across the exchanges between. */
static int
anchor(const Kernel *k, const int *to, int i)
{
	const Instr *in = &k->ins[i];
	if (store_moves(k, in))
		return k->vals[in->args[0].idx].def;
	if (in->op != OP_COLSUM || in->args[0].kind != ARG_VAL ||
	    k->vals[in->args[0].idx].shape != SH_TILE)
		return -1;
	int v = in->args[0].idx, at = k->vals[v].def, read = 0;
	for (int s = at + 1; s < i; s++)
		for (int a = 0; a < k->ins[s].nargs; a++)
			if (argval(&k->ins[s], a) == v) {
				at = to[s] >= 0 ? to[s] : s;
				read = 1;
			}
	return read || k->ins[at].op != OP_LOAD ? at : -1;
}

void
order_stores(Kernel *k)
{
	int n = k->nins;
	Instr *out = malloc(sizeof(Instr) * (size_t)(n + 1));
	int *to = malloc(sizeof(int) * (size_t)(n + 1));
	for (int i = 0; i < n; i++)
		to[i] = anchor(k, to, i);
	int at = 0;
	for (int i = 0; i < n; i++) {
		if (to[i] >= 0)
			continue; /* placed after its anchor */
		out[at] = k->ins[i];
		out[at++].src = i;
		for (int pass = 0; pass < 2; pass++) /* its colsums, then its stores */
			for (int s = i + 1; s < n; s++)
				if (to[s] == i && (k->ins[s].op != OP_COLSUM) == pass) {
					out[at] = k->ins[s];
					out[at++].src = s;
				}
	}
	memcpy(k->ins, out, sizeof(Instr) * (size_t)n);
	for (int i = 0; i < n; i++)
		for (int r = 0; r < k->ins[i].nres; r++)
			if (k->ins[i].res[r] >= 0)
				k->vals[k->ins[i].res[r]].def = i;
	free(out);
	free(to);
}
