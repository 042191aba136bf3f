/* explain's JSON object: the request, the config, the modelled cost, the reasons and the facts. */
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
		    passes, json_pack("{s:i,s:i,s:i,s:i}", "tile_bytes", f->pass_tile_bytes[p],
				      "vec_bytes", f->pass_vec_bytes[p], "words", f->pass_words[p],
				      "partials", f->pass_partials[p]));
	return json_pack(
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
	buf_free(&cs);
	char *s = json_dumps(o, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(10));
	json_decref(o);
	return s;
}
