/* explain's JSON object: the request, the config, the modelled cost and its terms, the reasons
 * and the facts; and, for explain --ptxas, what ptxas took against what the model counted. */
#include <jansson.h>
#include <stdlib.h>

#include "driver/rkc.h"

const char *
rkc_dtype_name(Type t)
{
	return t == TY_BF16 ? "bf16" : t == TY_F16 ? "fp16" : "fp32";
}

static json_t *
facts_json(const Facts *f)
{
	json_t *passes = json_array();
	for (int p = 0; p < f->passes && p < MAX_PASSES; p++)
		json_array_append_new(
		    passes, json_pack("{s:i,s:i,s:i,s:i,s:i}", "tile_bytes", f->pass_tile_bytes[p],
				      "vec_bytes", f->pass_vec_bytes[p], "words", f->pass_words[p],
				      "partials", f->pass_partials[p], "ops", f->pass_ops[p]));
	json_t *o = json_pack(
	    "{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:b,s:b,s:i,s:i,s:i,s:i,s:s,s:o,"
	    "s:b,s:i,s:i,s:i,s:i,s:i,s:i}",
	    "loads", f->nloads, "stores", f->nstores, "tile_loads", f->ntile_loads, "vec_loads",
	    f->nvec_loads, "load_isz", f->load_isz, "compute_isz", f->compute_isz, "tile_in_bytes",
	    f->tile_in_bytes, "vec_in_bytes", f->vec_in_bytes, "tile_out_bytes", f->tile_out_bytes,
	    "row_bytes", f->row_in_bytes + f->row_out_bytes, "row_reread", f->row_reread,
	    "full_width_output", f->full_width_output, "reductions", f->nreds, "levels", f->levels,
	    "online", f->online, "passes_looped", f->passes, "chain", f->chain, "pass_reads",
	    passes, "split_ok", f->split_ok, "helion_live_tiles", f->helion_live, "held_tiles",
	    f->held_tiles, "held_words", f->held_words, "row_regs", f->row_regs, "row_peak",
	    f->row_peak, "pointers", f->nptrs);
	json_object_set_new(o, "row_exchanges", json_integer(f->row_exchanges));
	json_object_set_new(o, "ops", json_integer(f->ops));
	return o;
}

/* The cost model's terms (heuristics/cost.c): a CTA's latency, ns, and the modelled time, us,
 * each as the model adds them, and the largest term of each. */
static json_t *
cost_json(const Cost *c)
{
	const char *names[] = {"dram",	    "later_passes", "reduction", "cluster",
			       "cta_fixed", "ticket",	    "split"};
	double ns[] = {c->dram_ns,  c->passes_ns, c->reduce_ns, c->cluster_ns,
		       c->fixed_ns, c->ticket_ns, c->split_ns};
	json_t *cta = json_object();
	int big = 0;
	for (int i = 0; i < 7; i++) {
		json_object_set_new(cta, names[i], json_real(ns[i]));
		big = ns[i] > ns[big] ? i : big;
	}
	const char *tnames[] = {"hbm", "l2", "launch", "colsum_combine"};
	double us[] = {c->mem_us, c->l2_us, c->launch_us, c->combine_us};
	json_t *time = json_object();
	int tbig = 0;
	for (int i = 0; i < 4; i++) {
		json_object_set_new(time, tnames[i], json_real(us[i]));
		tbig = us[i] > us[tbig] ? i : tbig;
	}
	return json_pack(
	    "{s:f,s:f,s:o,s:s,s:o,s:s,s:f,s:f,s:f,s:I,s:i,s:f,s:i,s:f,s:b,s:f,s:b,s:f}", "us",
	    c->us, "cta_us", c->cta_us, "cta_terms_ns", cta, "cta_largest", names[big],
	    "time_terms_us", time, "time_largest", tnames[tbig], "hbm_bytes", c->hbm_bytes,
	    "l2_bytes", c->l2_bytes, "bw_gbps", c->bw_gbps, "ctas", (json_int_t)c->ctas,
	    "ctas_per_sm", c->ctas_per_sm, "waves", c->waves, "reg_limit", c->reg_limit,
	    "dispatch_us", c->dispatch_us, "dispatch_bound", c->dispatch_bound, "issue_us",
	    c->issue_us, "issue_bound", c->issue_bound, "sector", c->sector);
}

char *
rkc_explain_json(const Request *rq, const Result *r)
{
	const Kernel *k = rq->k;
	int64_t M = rq->M, N = rq->N;
	const Facts *f = &r->facts;
	const Choice *c = &r->choice;
	json_t *reasons = json_array();
	for (int i = 0; i < c->nreasons; i++)
		json_array_append_new(reasons, json_string(c->reasons[i]));
	const Config *g = &c->cfg;
	Buf cs = {0};
	config_short(&cs, g);
	json_t *o = json_pack(
	    "{s:s,s:I,s:I,s:s,s:s,s:s,s:b,s:I,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:I,s:f,s:o,"
	    "s:o,s:b,s:s,s:b}",
	    "kernel", k->name, "M", (json_int_t)M, "N", (json_int_t)N, "dtype",
	    rkc_dtype_name(rq->dtype), "arch", r->compile.arch, "policy", policy_name(rq->policy),
	    "persistent", g->persistent, "r_block", (json_int_t)g->r_block, "m_block", g->m_block,
	    "num_warps", g->num_warps, "vec", g->vec, "split", g->split, "evict", g->evict,
	    "min_ctas", g->min_ctas > 1 ? g->min_ctas : 1, "smem", g->smem, "cluster",
	    g->cluster > 1 ? g->cluster : 1, "passes", r->passes, "predicted_regs", c->cost.regs,
	    "live_bytes_per_thread", (json_int_t)c->cost.live_bytes, "modelled_us",
	    (double)(long long)(c->cost.us * 10 + 0.5) / 10, "reasons", reasons, "facts",
	    facts_json(f), "batch_invariant", rq->batch_invariant, "config_short", cs.s ? cs.s : "",
	    "spills", c->cost.spills != 0);
	json_object_update_new(o, json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:o}", "grid", g->grid,
					    "dynamic", g->dynamic, "ahead", g->ahead, "coop",
					    g->coop, "stash", g->stash, "steps", g->steps,
					    "colpass", g->colpass, "cost", cost_json(&c->cost)));
	buf_free(&cs);
	if (r->ptxas.regs)
		json_object_set_new(o, "ptxas",
				    json_pack("{s:i,s:I,s:I,s:I,s:i,s:s}", "regs", r->ptxas.regs,
					      "spill_stores", (json_int_t)r->ptxas.spill_stores,
					      "spill_loads", (json_int_t)r->ptxas.spill_loads,
					      "stack", (json_int_t)r->ptxas.stack, "ctas_per_sm",
					      r->ptxas_ctas, "limit", r->ptxas_limit));
	char *s = json_dumps(o, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(10));
	json_decref(o);
	return s;
}

int
rkc_explain_ptxas(const Request *rq, Result *r, Diag *d)
{
	Buf log = {0};
	PtxasFunc pf[8];
	int n = 0, rc = ptxas_run(r->ptx.s, r->compile.arch, &log, d);
	if (!rc)
		n = ptxas_parse(log.s ? log.s : "", pf, 8);
	buf_free(&log);
	if (rc)
		return -1;
	if (n < 1 || pf[0].regs < 1)
		return diag(d, "ptxas: no register count in its report");
	r->ptxas = pf[0];
	r->ptxas_ctas = cost_occupancy(&r->facts, &r->choice.cfg, rq->N, &r->target, pf[0].regs,
				       &r->ptxas_limit);
	return 0;
}
