/* rkc explain: a kernel's facts, the config a policy picks for a shape, and why. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "driver/rkc.h"
#include "tools/tools.h"

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

static void
print_text(const Kernel *k, const Result *r, int64_t M, int64_t N, const char *dtype, Policy p)
{
	const Facts *f = &r->facts;
	const Choice *c = &r->choice;
	const Target *t = &r->target;
	printf("kernel %s  shape %lldx%lld  dtype %s  arch %s (%s)  policy %s\n\n", k->name,
	       (long long)M, (long long)N, dtype, r->compile.arch, t->name, policy_name(p));
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
	printf("  live: Helion-style %d", f->helion_live);
	if (measured >= 0)
		printf(" (Helion measured %d)", measured);
	printf("; persistent holds %d tile(s), %d word(s) an element\n\n", f->held_tiles,
	       f->held_words);
	const Config *g = &c->cfg;
	printf("config\n  %s r_block %lld  m_block %d  num_warps %d  vec %d  split %d  evict %d  "
	       "min_ctas %d\n",
	       g->persistent ? "persistent" : "looped", (long long)g->r_block, g->m_block,
	       g->num_warps, g->vec, g->split, g->evict, g->min_ctas > 1 ? g->min_ctas : 1);
	printf("  streams the row %d time(s); predicted %d regs/thread, %lld live bytes/thread, "
	       "modelled %.1f us\n\n",
	       r->passes, c->cost.regs, (long long)c->cost.live_bytes, c->cost.us);
	printf("reasons\n");
	for (int i = 0; i < c->nreasons; i++)
		printf("  - %s\n", c->reasons[i]);
}

static void
print_json(const Kernel *k, const Result *r, int64_t M, int64_t N, const char *dtype, Policy p)
{
	const Facts *f = &r->facts;
	const Choice *c = &r->choice;
	json_t *reasons = json_array();
	for (int i = 0; i < c->nreasons; i++)
		json_array_append_new(reasons, json_string(c->reasons[i]));
	const Config *g = &c->cfg;
	json_t *o = json_pack(
	    "{s:s,s:I,s:I,s:s,s:s,s:s,s:b,s:I,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:I,s:f,s:o,s:o}",
	    "kernel", k->name, "M", (json_int_t)M, "N", (json_int_t)N, "dtype", dtype, "arch",
	    r->compile.arch, "policy", policy_name(p), "persistent", g->persistent, "r_block",
	    (json_int_t)g->r_block, "m_block", g->m_block, "num_warps", g->num_warps, "vec", g->vec,
	    "split", g->split, "evict", g->evict, "min_ctas", g->min_ctas > 1 ? g->min_ctas : 1,
	    "passes", r->passes, "predicted_regs", c->cost.regs, "live_bytes_per_thread",
	    (json_int_t)c->cost.live_bytes, "modelled_us",
	    (double)(long long)(c->cost.us * 10 + 0.5) / 10, "reasons", reasons, "facts",
	    facts_json(f));
	char *s = json_dumps(o, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(10));
	puts(s);
	free(s);
	json_decref(o);
}

static int
usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "rkc explain: error: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
	fputs("usage: rkc explain K.rk --shape MxN --dtype bf16|fp16|fp32 [--arch sm_90] "
	      "[--policy rkc|helion2828] [--config k=v,...] [--json]\n",
	      stderr);
	return 2;
}

int
cmd_explain(int argc, char **argv)
{
	const char *path = NULL, *shape = NULL, *dtype = NULL, *arch = "sm_90", *policy = "rkc";
	const char *forced = NULL;
	int json = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **slot = !strcmp(a, "--shape")    ? &shape
				    : !strcmp(a, "--dtype")  ? &dtype
				    : !strcmp(a, "--arch")   ? &arch
				    : !strcmp(a, "--policy") ? &policy
				    : !strcmp(a, "--config") ? &forced
							     : NULL;
		if (slot) {
			if (i + 1 == argc)
				return usage_error("missing value after", a);
			*slot = argv[++i];
		} else if (!strcmp(a, "--json"))
			json = 1;
		else if (a[0] == '-' && a[1])
			return usage_error("unknown option", a);
		else if (path)
			return usage_error("one kernel file at a time; extra", a);
		else
			path = a;
	}
	if (!path)
		return usage_error("no kernel file given", NULL);
	int64_t M, N;
	if (!shape)
		return usage_error("no --shape given", NULL);
	if (tool_parse_shape("explain", shape, &M, &N) ||
	    (forced && tool_check_config("explain", forced)))
		return 2;
	Type dt;
	Diag d = {0};
	if (!dtype || rkc_parse_dtype(dtype, &dt, &d))
		return usage_error("--dtype needs bf16, fp16 or fp32, got",
				   dtype ? dtype : "nothing");
	dtype = dt == TY_BF16 ? "bf16" : dt == TY_F16 ? "fp16" : "fp32";
	Policy p;
	if (rkc_parse_policy(policy, &p, &d))
		return usage_error("--policy needs rkc or helion2828, got", policy);
	if (rkc_parse_arch(arch, &d))
		return usage_error("--arch needs sm_80, sm_86, sm_89 or sm_90, got", arch);
	Kernel *k = tool_load_kernel(path);
	if (!k)
		return 1;
	Request rq = {
	    .k = k, .M = M, .N = N, .dtype = dt, .arch = arch, .policy = p, .forced = forced};
	Result r;
	if (rkc_compile(&rq, &r, &d)) {
		fprintf(stderr, "rkc explain: %s\n", d.msg);
		rkc_result_free(&r);
		kernel_free(k);
		return 1;
	}
	if (json)
		print_json(k, &r, M, N, dtype, p);
	else
		print_text(k, &r, M, N, dtype, p);
	rkc_result_free(&r);
	kernel_free(k);
	return 0;
}
