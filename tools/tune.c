/* rkc tune: time the rkc policy's ranked candidates on the GPU; its pick (the seed) vs the best. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"
#include "tools/tools.h"

#define MAX_TOP 256

static const char tune_usage[] =
    "usage: rkc tune K.rk --shape MxN --dtype bf16|f16|f32 [--arch sm_90] [--top N] [--seed S]\n"
    "       [--copy-gbps G] [--no-check]\n"
    "On a GPU, one shape a call (BxLxN runs as M = B*L rows): compile and time the rkc policy's\n"
    "first N candidates in its own ranking (default 24; the first is its pick, the seed) and the\n"
    "helion2828 policy's pick, check each against the reference (--no-check: time only), and\n"
    "print them fastest first, then a TUNE line with the seed's time over the best one's.\n"
    "Exit 0 when the seed and at least one candidate ran and passed, 1 otherwise, 2 on usage.\n";

/* One candidate and what became of it. */
typedef struct {
	const Choice *ch;
	const char *policy; /* whose pick (or ranking) it comes from, for the manifest */
	int seed, helion;
	enum { T_OK, T_UNCHECKED, T_FAIL, T_ERROR } status;
	double us, copy_pct;
	int regs, local_bytes;
	char config[256]; /* the manifest's config, JSON */
	char err[512];
} Trial;

static const char *status_names[] = {"ok", "unchecked", "FAIL", "ERROR"};

/* Fastest first; what did not run or failed its check goes last, in candidate order. */
static int
by_time(const void *pa, const void *pb)
{
	const Trial *a = *(const Trial *const *)pa, *b = *(const Trial *const *)pb;
	int ra = a->status >= T_FAIL, rb = b->status >= T_FAIL;
	if (ra != rb)
		return ra - rb;
	if (!ra && a->us != b->us)
		return a->us < b->us ? -1 : 1;
	return a < b ? -1 : a > b;
}

static int
usage_error(const char *fmt, const char *arg)
{
	fputs("rkc tune: error: ", stderr);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", tune_usage);
	return 2;
}

/* The candidates: the rkc ranking (*nrkc of them, the seed first), then helion2828's pick unless
 * the ranking holds it; *helion is its index. Returns how many, or -1 with d set. */
static int
candidates(Choice *cs, int top, int *nrkc, int *helion, const Kernel *k, const Facts *f, int64_t M,
	   int64_t N, const Target *t, Diag *d)
{
	int n = rkc_candidates(k, f, M, N, t, cs, top);
	/* Nothing fits the budget: the policy's fallback is its pick, and the only candidate. */
	if (n == 0 && choose(k, f, M, N, t, POLICY_RKC, &cs[n++], d))
		return -1;
	if (choose(k, f, M, N, t, POLICY_HELION2828, &cs[n], d))
		return -1;
	*nrkc = n;
	for (*helion = 0; *helion < n && !config_equal(&cs[*helion].cfg, &cs[n].cfg); ++*helion)
		;
	return *helion == n ? n + 1 : n;
}

int
cmd_tune(int argc, char **argv)
{
	const char *path = NULL, *dtype_s = NULL, *shape = NULL, *arch = "sm_90";
	int top = 24, check = 1;
	RunOpts ro = {.seed = 1, .time = 1};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(tune_usage, stdout);
			return 0;
		}
		if (!strcmp(a, "--no-check")) {
			check = 0;
			continue;
		}
		if (a[0] != '-' || !a[1]) {
			if (path)
				return usage_error("one kernel file at a time ('%s')", a);
			path = a;
			continue;
		}
		const char *v = i + 1 < argc ? argv[++i] : NULL;
		char *end = NULL;
		if (strcmp(a, "--shape") && strcmp(a, "--dtype") && strcmp(a, "--arch") &&
		    strcmp(a, "--top") && strcmp(a, "--seed") && strcmp(a, "--copy-gbps"))
			return usage_error("unknown option '%s'", a);
		if (!v)
			return usage_error("'%s' needs a value", a);
		if (!strcmp(a, "--shape")) {
			if (shape)
				return usage_error("one shape a call ('%s' is a second)", v);
			shape = v;
		} else if (!strcmp(a, "--dtype"))
			dtype_s = v;
		else if (!strcmp(a, "--arch"))
			arch = v;
		else if (!strcmp(a, "--top")) {
			long n = strtol(v, &end, 10);
			if (*end || end == v || n < 1 || n > MAX_TOP)
				return usage_error("--top wants 1 to 256, not '%s'", v);
			top = (int)n;
		} else if (!strcmp(a, "--seed")) {
			ro.seed = strtoull(v, &end, 0);
			if (*end || end == v)
				return usage_error("--seed wants an integer, not '%s'", v);
		} else {
			ro.copy_gbps = strtod(v, &end);
			if (*end || end == v || ro.copy_gbps <= 0)
				return usage_error("--copy-gbps wants a positive number, not '%s'",
						   v);
		}
	}
	if (!path || !dtype_s || !shape) {
		fputs(tune_usage, stderr);
		return 2;
	}
	Type dtype;
	int64_t M, N;
	Diag e = {0};
	if (rkc_parse_dtype(dtype_s, &dtype, &e) || rkc_parse_arch(arch, &e))
		return usage_error("%s", e.msg + 7);
	if (tool_parse_shape("tune", shape, &M, &N))
		return 2;
	ro.check = check;

	Kernel *k = tool_load_kernel(path);
	if (!k)
		return 1;
	Diag d = {0};
	Facts f;
	Target t;
	Choice *cs = calloc((size_t)top + 2, sizeof *cs);
	Trial *ts = calloc((size_t)top + 2, sizeof *ts);
	Trial **order = calloc((size_t)top + 2, sizeof *order);
	char *in_json = NULL, *tol_json = NULL;
	Gpu *g = NULL;
	int status = 1, n = 0, nrkc = 0, helion = 0;
	/* the pipeline's facts and target, then the candidates it compiles one by one */
	Request rq = {.k = k, .M = M, .N = N, .dtype = dtype, .arch = arch};
	Result base;
	int failed = rkc_compile(&rq, &base, &d);
	f = base.facts;
	t = base.target;
	rkc_result_free(&base);
	if (failed || (n = candidates(cs, top, &nrkc, &helion, k, &f, M, N, &t, &d)) < 0 ||
	    !(in_json = tool_read_data(NULL, "inputs.json", &ro.inputs_file, &d)) ||
	    !(tol_json = tool_read_data(NULL, "tolerances.json", &ro.tol_file, &d)) ||
	    !(g = gpu_open(&d)))
		goto out;
	ro.inputs_json = in_json;
	ro.tol_json = tol_json;
	/* one set of inputs and one reference for every candidate */
	if (!(ro.data = run_data_new(k, dtype, M, N, &ro, &d)))
		goto out;
	printf("device: %s\n", gpu_describe(g));
	printf("%s %s %lldx%lld: %d candidates: the rkc policy's first %d by its ranking%s\n",
	       k->name, type_name(dtype), (long long)M, (long long)N, n, nrkc,
	       helion == nrkc ? ", then helion2828's pick" : " (helion2828's pick among them)");
	fflush(stdout);

	for (int i = 0; i < n; i++) {
		Trial *tr = &ts[i];
		tr->ch = &cs[i];
		tr->seed = i == 0;
		tr->helion = i == helion;
		tr->policy = i < nrkc ? "rkc" : "helion2828";
		order[i] = tr;
		Manifest m;
		Buf ptx = {0};
		RunResult r;
		d = (Diag){0};
		Request one = rq;
		one.cfg = &tr->ch->cfg;
		one.policy = i < nrkc ? POLICY_RKC : POLICY_HELION2828;
		one.emit = 1;
		int rc = tool_build(&one, &ptx, &m, &d) || run_point(&r, g, k, &m, ptx.s, &ro, &d);
		buf_free(&ptx);
		Buf cfg = {0};
		config_short(&cfg, &tr->ch->cfg);
		if (rc) {
			tr->status = T_ERROR;
			snprintf(tr->err, sizeof tr->err, "%s", d.msg);
			fprintf(stderr, "rkc tune: %s %s %s: %s: %s\n", k->name, dtype_s, shape,
				cfg.s, d.msg);
			buf_free(&cfg);
			continue;
		}
		tr->status = !check ? T_UNCHECKED : r.pass ? T_OK : T_FAIL;
		tr->us = r.us;
		tr->copy_pct = r.copy_gbps > 0 ? 100 * r.gbps / r.copy_gbps : 0;
		tr->regs = r.regs;
		tr->local_bytes = r.local_bytes;
		snprintf(tr->config, sizeof tr->config, "%s", m.config);
		if (tr->status == T_FAIL)
			fprintf(stderr, "rkc tune: %s %s %s: %s: wrong results, not a candidate\n",
				k->name, dtype_s, shape, cfg.s);
		buf_free(&cfg);
		if (r.copy_gbps > 0)
			ro.copy_gbps = r.copy_gbps;
	}
	d.set = 0;
	qsort(order, (size_t)n, sizeof *order, by_time);

	/* cand: the place in the rkc policy's ranking ("h": helion2828's pick, added) */
	printf("rank  cand  %-30s %9s %10s %7s %5s %6s  status\n", "config", "model_us", "us",
	       "%copy", "regs", "local");
	int seed_rank = 0;
	for (int i = 0; i < n; i++) {
		const Trial *tr = order[i];
		int ranked = tr->status < T_FAIL, c = (int)(tr - ts);
		Buf line = {0};
		if (ranked)
			buf_printf(&line, "%4d  ", i + 1);
		else
			buf_puts(&line, "   -  ");
		if (c < nrkc)
			buf_printf(&line, "%4d  ", c + 1);
		else
			buf_puts(&line, "   h  ");
		size_t at = line.len;
		config_short(&line, &tr->ch->cfg);
		int pad = 30 - (int)(line.len - at);
		buf_printf(&line, "%*s %9.2f ", pad > 0 ? pad : 0, "", tr->ch->cost.us);
		if (tr->status == T_ERROR)
			buf_printf(&line, "%10s %7s %5s %6s ", "-", "-", "-", "-");
		else
			buf_printf(&line, "%10.2f %6.1f%% %5d %6d ", tr->us, tr->copy_pct, tr->regs,
				   tr->local_bytes);
		buf_printf(&line, " %s", status_names[tr->status]);
		if (tr->seed || tr->helion)
			buf_printf(&line, "%*s%s%s", 10 - (int)strlen(status_names[tr->status]), "",
				   tr->seed ? "<- seed (rkc)" : "",
				   tr->helion ? (tr->seed ? ", helion2828" : "<- helion2828") : "");
		puts(line.s);
		if (tr->seed && ranked)
			seed_rank = i + 1;
		buf_free(&line);
	}

	const Trial *seed = &ts[0], *h = &ts[helion];
	const Trial *best = order[0]->status < T_FAIL ? order[0] : NULL;
	double best_us = best ? best->us : 0;
	Buf bs = {0}, ss = {0};
	config_short(&ss, &seed->ch->cfg);
	if (best)
		config_short(&bs, &best->ch->cfg);
	else
		fprintf(stderr, "rkc tune: %s %s %s: no candidate ran and passed its check\n",
			k->name, dtype_s, shape);
	double ratio = seed_rank ? seed->us / best_us : INFINITY;
	if (seed_rank)
		printf(
		    "seed %s: %.2f us, rank %d of %d; best %s: %.2f us; seed/best %.3f (%s 5%%)\n",
		    ss.s, seed->us, seed_rank, n, bs.s, best_us, ratio,
		    ratio <= 1.05 ? "within" : "over");
	else
		printf("seed %s: %s; best %s\n", ss.s,
		       seed->status == T_FAIL ? "wrong results" : "did not run",
		       best ? bs.s : "none");
	/* Printed even without a best, so a bench table shows what became of the point. */
	printf(
	    "TUNE kernel=%s dtype=%s M=%lld N=%lld seed_us=%.2f best_us=%.2f seed_over_best=%.3f "
	    "seed_rank=%d candidates=%d copy_gbps=%.0f seed_status=%s helion_us=%.2f "
	    "helion_over_best=%.3f best_config=%s\n",
	    k->name, type_name(dtype), (long long)M, (long long)N, seed->us, best_us, ratio,
	    seed_rank, n, ro.copy_gbps, status_names[seed->status], h->us,
	    best && h->status < T_FAIL ? h->us / best_us : INFINITY, best ? best->config : "none");
	buf_free(&bs);
	buf_free(&ss);
	status = seed_rank ? 0 : 1;
out:
	if (d.set)
		fprintf(stderr, "rkc tune: %s\n", d.msg);
	run_data_free(ro.data);
	gpu_close(g);
	free(in_json);
	free(tol_json);
	free(order);
	free(ts);
	free(cs);
	kernel_free(k);
	return status;
}
