/* rkc explain: a kernel's facts, the config a policy picks for a shape, and why. */
#include <stdlib.h>
#include <string.h>

#include "driver/rkc.h"
#include "tools/tools.h"

static void
print_text(const Kernel *k, const Result *r, const Request *rq, const char *dtype)
{
	int64_t M = rq->M, N = rq->N;
	Policy p = rq->policy;
	const Facts *f = &r->facts;
	const Choice *c = &r->choice;
	const Target *t = &r->target;
	printf("kernel %s  shape %lldx%lld  dtype %s  arch %s (%s)  policy %s%s\n\n", k->name,
	       (long long)M, (long long)N, dtype, r->compile.arch, t->name, policy_name(p),
	       rq->batch_invariant ? "  batch-invariant" : "");
	int measured = helion_measured_live(k->name);
	printf("facts\n");
	printf("  loads %d (%d [M,N], %d [N]), stores %d (%d [M,N])\n", f->nloads, f->ntile_loads,
	       f->nvec_loads, f->nstores, f->ntile_stores);
	printf("  bytes per element: %d at load (narrowest feeding a reduction), %d in compute "
	       "(last reduction's input)\n",
	       f->load_isz, f->compute_isz);
	printf("  row re-read: %s   full-width output: %s   split applies: %s\n",
	       f->row_reread ? "yes" : "no", f->full_width_output ? "yes" : "no",
	       f->split_ok ? "yes" : "no");
	printf("  reductions %d: %s; looped passes %d\n", f->nreds, f->chain[0] ? f->chain : "none",
	       f->passes);
	if (f->reload_saves > 0)
		printf("  read back: a looped row's later passes load back what an earlier pass "
		       "stored (kept on chip: keep it in place of its inputs), %d byte(s) an "
		       "element fewer\n",
		       f->reload_saves);
	printf("  instructions an element: %d persistent", f->ops);
	for (int s = 0; s < f->passes && s < MAX_PASSES; s++)
		printf("%s%d", s ? ", " : "; looped by pass ", f->pass_ops[s]);
	printf("\n");
	printf("  live: Helion-style %d", f->helion_live);
	if (measured >= 0)
		printf(" (Helion measured %d)", measured);
	printf("; persistent holds %d tile(s), %d word(s) an element\n\n", f->held_tiles,
	       f->held_words);
	const Config *g = &c->cfg;
	printf(
	    "config\n  %s r_block %lld  m_block %d  num_warps %d  vec %d  split %d  cluster %d%s  "
	    "smem %d%s%s%s  evict %d  min_ctas %d\n",
	    g->persistent ? "persistent" : "looped", (long long)g->r_block, g->m_block,
	    g->num_warps, g->vec, g->split, g->cluster > 1 ? g->cluster : 1,
	    g->coop ? " (coop)" : "", g->smem, g->stash ? "  stash 1" : "",
	    g->steps ? "  steps 1" : "", g->colpass ? "  colpass 1" : "", g->evict,
	    g->min_ctas > 1 ? g->min_ctas : 1);
	printf("  streams the row %d time(s)%s; predicted %d regs/thread, %lld live bytes/thread, "
	       "modelled %.1f us\n\n",
	       r->passes,
	       g->smem && !g->persistent ? " (from HBM once, then from shared memory)"
	       : g->smem		 ? " (the colsum partials in shared memory)"
					 : "",
	       c->cost.regs, (long long)c->cost.live_bytes, c->cost.us);
	if (r->ptxas.regs) {
		printf("ptxas %s\n  %d regs/thread, ", r->compile.arch, r->ptxas.regs);
		if (r->ptxas.spill_stores || r->ptxas.spill_loads)
			printf("%ld bytes of spill stores and %ld of spill loads",
			       r->ptxas.spill_stores, r->ptxas.spill_loads);
		else
			printf("no spill");
		printf(": %d CTA%s an SM (%s); the model: %d regs, %d CTA%s an SM (%s)\n\n",
		       r->ptxas_ctas, r->ptxas_ctas == 1 ? "" : "s", r->ptxas_limit, c->cost.regs,
		       c->cost.ctas_per_sm, c->cost.ctas_per_sm == 1 ? "" : "s", c->cost.limit);
	}
	printf("reasons\n");
	for (int i = 0; i < c->nreasons; i++)
		printf("  - %s\n", c->reasons[i]);
}

static void
print_json(const Request *rq, const Result *r)
{
	char *s = rkc_explain_json(rq, r);
	puts(s);
	free(s);
}

static int
explain_run(const Args *a)
{
	const char *path = a->operands[0];
	int json = arg_count(a, "--json");
	Request rq;
	if (tool_request(a, &rq))
		return 2;
	const char *dtype = tool_dtype_name(rq.dtype);
	Diag d = {0};
	Kernel *k = tool_load_kernel(path);
	if (!k)
		return 1;
	rq.k = k;
	rq.emit = arg_count(a, "--ptxas") > 0;
	Result r;
	if (rkc_compile(&rq, &r, &d) || (rq.emit && rkc_explain_ptxas(&rq, &r, &d))) {
		fprintf(stderr, "rkc explain: %s\n", d.msg);
		rkc_result_free(&r);
		kernel_free(k);
		return 1;
	}
	if (json)
		print_json(&rq, &r);
	else
		print_text(k, &r, &rq, dtype);
	rkc_result_free(&r);
	kernel_free(k);
	return 0;
}

const Cmd cmd_explain = {
    .name = "explain",
    .operands = "K.rk",
    .min_operands = 1,
    .max_operands = 1,
    .missing = "no kernel file given",
    .summary = "A kernel's facts, the config a policy picks for a shape, and the reason for each "
	       "knob.",
    .opts =
	(const Opt[]){
	    OPT_SHAPE,
	    OPT_DTYPE,
	    OPT_ARCH,
	    OPT_POLICY,
	    OPT_CONFIG,
	    OPT_BATCH_INVARIANT,
	    {"--ptxas", NULL,
	     "also assemble it: ptxas's registers, spills and CTAs an SM beside the model's", 0},
	    {"--json", NULL, "the same as one JSON object (docs/heuristics.md lists its fields)",
	     0},
	    {0},
	},
    .about = "Where ptxas is found, the policy's pick is assembled, and its min_ctas lowered while "
	     "ptxas\nspills 32 bytes or more a thread (the spill guard: docs/heuristics.md); the "
	     "last reason\nsays so. --config leaves the knobs as given.\n",
    .run = explain_run,
};
