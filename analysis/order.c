/* Statement order: each [M,N] store moves up to right after the statement making its value. */
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
 * Instr.src keeps each statement's place as written, for Helion's live-tile count.
 */
/* A store that moves: of an [M,N] value, into an [M,N] output. */
static int
moves(const Kernel *k, const Instr *in)
{
	return in->op == OP_STORE && k->params[in->param].shape == SH_TILE &&
	       in->args[0].kind == ARG_VAL;
}

void
order_stores(Kernel *k)
{
	int n = k->nins;
	Instr *to = malloc(sizeof(Instr) * (size_t)(n + 1));
	int at = 0;
	for (int i = 0; i < n; i++) {
		const Instr *in = &k->ins[i];
		if (moves(k, in))
			continue; /* placed after the statement that makes its value */
		to[at] = *in;
		to[at++].src = i;
		for (int s = i + 1; s < n; s++) {
			const Instr *st = &k->ins[s];
			for (int r = 0; moves(k, st) && r < in->nres; r++)
				if (in->res[r] == st->args[0].idx) {
					to[at] = *st;
					to[at++].src = s;
				}
		}
	}
	memcpy(k->ins, to, sizeof(Instr) * (size_t)n);
	for (int i = 0; i < n; i++)
		for (int r = 0; r < k->ins[i].nres; r++)
			if (k->ins[i].res[r] >= 0)
				k->vals[k->ins[i].res[r]].def = i;
	free(to);
}
