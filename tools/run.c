/* rkc run: compile (or take PTX and its manifest), then check and time on the GPU. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"
#include "tools/tools.h"

int
tool_build(const Request *rq, Buf *ptx, Manifest *m, Diag *d)
{
	Result r;
	int rc = rkc_compile(rq, &r, d) || manifest_parse(m, "<manifest>", r.manifest.s, d);
	if (!rc) {
		*ptx = r.ptx;
		r.ptx = (Buf){0};
	}
	rkc_result_free(&r);
	return rc ? -1 : 0;
}

char *
tool_read_data(const char *given, const char *name, const char **used, Diag *d)
{
	static char paths[2][2][4096]; /* a pair for each file, so *used outlives the next call */
	if (given) {
		*used = given;
		return read_file(given, NULL, d);
	}
	int slot = strcmp(name, "inputs.json") != 0;
	snprintf(paths[slot][0], sizeof paths[slot][0], "testdata/%s", name);
	snprintf(paths[slot][1], sizeof paths[slot][1], "%s/testdata/%s", RKC_SOURCE_DIR, name);
	for (int i = 0; i < 2; i++) {
		Diag ignore = {0};
		char *s = read_file(paths[slot][i], NULL, &ignore);
		if (s) {
			*used = paths[slot][i];
			return s;
		}
	}
	diag(d, "cannot find testdata/%s (run from the source root)", name);
	return NULL;
}

/* A point that could not run, as rkc run --json prints it. */
static void
print_error_json(const Gpu *g, const Kernel *k, Type dtype, const char *where, const char *err)
{
	tool_put_json(json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}", "device", gpu_describe(g), "kernel",
				k->name, "dtype", tool_dtype_name(dtype), "shape", where, "status",
				"ERROR", "error", err));
}

/* --regions' table as --json prints it. */
static json_t *
regions_json(const RegionTable *t)
{
	json_t *list = json_array();
	for (int i = 0; i < t->n; i++) {
		const RegionStat *s = &t->r[i];
		json_t *o = json_pack("{s:s,s:I,s:f,s:f,s:f,s:f,s:f}", "name", s->name, "blocks",
				      (json_int_t)s->blocks, "median_us", s->med_ns / 1e3,
				      "mean_us", s->mean_ns / 1e3, "max_us", s->max_ns / 1e3,
				      "share", s->share, "kernel_level_us", s->level_us);
		if (t->lives_ctas > 0)
			json_object_update_new(o, json_pack("{s:f,s:f}", "cta_median_us",
							    s->cta_med_ns / 1e3, "cta_max_us",
							    s->cta_max_ns / 1e3));
		if (s->wait)
			json_object_update_new(o, json_pack("{s:f,s:f}", "wait_median_us",
							    s->wait_med_ns / 1e3, "wait_max_us",
							    s->wait_max_ns / 1e3));
		json_array_append_new(list, o);
	}
	json_t *o =
	    json_pack("{s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:I,s:I,s:i,s:f,s:s,s:o}", "kernel_us",
		      t->kernel_us, "floor_us", t->floor_us, "span_us", t->span_us, "sum_median_us",
		      t->sum_med_us, "sum_kernel_level_us", t->sum_level_us, "block_median_us",
		      t->block_med_us, "blocks_per_cta", t->blocks_per_cta, "cta_us", t->cta_us,
		      "timer_step_ns", t->tick_ns, "ctas", (json_int_t)t->ctas, "blocks",
		      (json_int_t)t->blocks, "every", t->every, "resident", t->resident, "dominant",
		      t->r[t->dominant].name, "list", list);
	if (t->lives_ctas > 0)
		json_object_update_new(o, json_pack("{s:{s:I,s:f,s:f,s:f}}", "lives", "ctas",
						    (json_int_t)t->lives_ctas, "sum_median_us",
						    t->lives_sum_med_us, "life_median_us",
						    t->life_med_us, "life_max_us", t->life_max_us));
	if (t->per_sm > 0)
		json_object_update_new(o,
				       json_pack("{s:i,s:i,s:I,s:f}", "per_sm", t->per_sm, "sms",
						 t->sms, "grid", (json_int_t)t->grid, "waves",
						 (double)t->grid / ((double)t->per_sm * t->sms)));
	return o;
}

/* A point as rkc run --json prints it: what run_report prints, one JSON object. */
static void
print_point_json(const Gpu *g, const Kernel *k, const Manifest *m, const RunResult *r)
{
	json_t *o = json_pack("{s:s,s:s,s:s,s:I,s:I}", "device", gpu_describe(g), "kernel", k->name,
			      "dtype", tool_dtype_name(m->dtype), "M", (json_int_t)m->M, "N",
			      (json_int_t)m->N);
	json_t *checks = json_array();
	for (int i = 0; i < r->nchecks; i++) {
		const Check *c = &r->checks[i];
		json_array_append_new(
		    checks,
		    json_pack("{s:s,s:s,s:o,s:f,s:I,s:I,s:I,s:I,s:b}", "output", c->name, "metric",
			      c->is_int ? "max_diff" : "rel_l2", "error", tool_json_real(c->err),
			      "tol", c->tol, "rows", (json_int_t)c->rows, "total_rows",
			      (json_int_t)c->total_rows, "nonfinite", (json_int_t)c->nonfinite,
			      "unwritten", (json_int_t)c->unwritten, "pass", c->pass));
		json_t *last = json_array_get(checks, json_array_size(checks) - 1);
		if (c->as_ref)
			json_object_set_new(last, "nonfinite_as_reference",
					    json_integer(c->as_ref));
		if (c->pad_written)
			json_object_set_new(last, "pad_written", json_integer(c->pad_written));
	}
	json_t *cfg = json_loads(m->config, 0, NULL);
	const char *status = r->nchecks == 0 ? "unchecked" : r->pass ? "ok" : "FAIL";
	json_object_update_new(
	    o, json_pack("{s:s,s:s,s:o,s:o,s:o,s:o,s:o,s:i,s:I,s:i,s:i}", "status", status,
			 "policy", m->policy, "config", cfg ? cfg : json_null(), "checks", checks,
			 "us", tool_json_real(r->us), "gbps", tool_json_real(r->gbps), "copy_gbps",
			 tool_json_real(r->copy_gbps), "reps", r->reps, "bytes",
			 (json_int_t)r->bytes, "regs", r->regs, "local_bytes", r->local_bytes));
	if (r->pad)
		json_object_set_new(o, "pad", json_integer(r->pad));
	if (r->has_regions)
		json_object_set_new(o, "regions", regions_json(&r->regions));
	if (r->plain_us[0] > 0)
		json_object_set_new(o, "plain_us",
				    json_pack("[o,o]", tool_json_real(r->plain_us[0]),
					      tool_json_real(r->plain_us[1])));
	if (r->other_every)
		json_object_set_new(o, "other_stamping",
				    json_pack("{s:i,s:o,s:[o,o]}", "every", r->other_every, "us",
					      tool_json_real(r->other_us), "plain_us",
					      tool_json_real(r->other_plain_us[0]),
					      tool_json_real(r->other_plain_us[1])));
	tool_put_json(o);
}

/* A shape compiled from rq and run with o, whose kernel without the stamps (o->plain_m), when
 * there is one, must have the same config. */
static int
build_and_run(RunResult *r, Manifest *m, Gpu *g, const Kernel *k, const Request *rq,
	      const RunOpts *o, Diag *d)
{
	Buf ptx = {0};
	int rc = tool_build(rq, &ptx, m, d);
	if (!rc && o->plain_m && strcmp(o->plain_m->config, m->config))
		rc = diag(d, "internal error: the config without --regions differs");
	if (!rc)
		rc = run_point(r, g, k, m, ptx.s, o, d);
	buf_free(&ptx);
	return rc;
}

/* A shape's run. With --time --regions the kernel without the stamps is compiled once and timed
 * on each stamped run's buffers, before and after it (RunOpts.plain_ptx). Under the sampling
 * rule's stamping (no --regions-every), where it samples, every block stamped runs too: the
 * rule's two copies of the row code cost some kernels more than one copy stamping every block,
 * and one copy costs others more (docs/regions.md, "Which stamping"), so the report is of the one
 * whose stamps cost less against the plain kernel on its own buffers, the other's times beside
 * it; when one fails its check and the other does not, the report is of the failure. */
static int
run_stampings(RunResult *r, Manifest *m, Gpu *g, const Kernel *k, const Request *rq,
	      const RunOpts *ro, Diag *d)
{
	Buf pptx = {0};
	Manifest pm;
	RunOpts o = *ro;
	int both = ro->time && ro->regions, rc = 0;
	if (both) {
		Request p = *rq;
		p.regions = 0;
		rc = tool_build(&p, &pptx, &pm, d);
		o.plain_ptx = pptx.s;
		o.plain_m = &pm;
	}
	if (!rc)
		rc = build_and_run(r, m, g, k, rq, &o, d);
	if (rc || !both || rq->regions_every || m->regions.every <= 1) {
		buf_free(&pptx);
		return rc;
	}
	RunResult *r1 = malloc(sizeof *r1);
	Manifest *m1 = malloc(sizeof *m1);
	Request one = *rq;
	one.regions_every = 1;
	if (!r1 || !m1)
		rc = diag(d, "out of memory");
	else
		rc = build_and_run(r1, m1, g, k, &one, &o, d);
	if (!rc) {
		int keep1 = ro->check && r->pass != r1->pass
				? !r1->pass
				: run_stamps_cost(r1->us, r1->plain_us) <
				      run_stamps_cost(r->us, r->plain_us);
		RunResult *kept = keep1 ? r1 : r;
		const RunResult *other = keep1 ? r : r1;
		kept->other_every = keep1 ? m->regions.every : 1;
		kept->other_us = other->us;
		memcpy(kept->other_plain_us, other->plain_us, sizeof other->plain_us);
		if (keep1) {
			*r = *r1;
			*m = *m1;
		}
	}
	free(r1);
	free(m1);
	buf_free(&pptx);
	return rc;
}

/* --first-row and --digest-row: a row's outputs compared across batches (docs/tune.md); --pad:
 * strided rows. */
static int
rows_opts(const Args *a, RunOpts *ro)
{
	const char *pad = arg_value(a, "--pad");
	char *pend = NULL;
	if (pad) {
		long long x = strtoll(pad, &pend, 10);
		if (*pend || pend == pad || x < 0 || x > (1 << 20))
			return args_error(a, "--pad takes an integer from 0 to 2^20, not '%s'",
					  pad);
		ro->pad = x;
	}
	const char *v[2] = {arg_value(a, "--first-row"), arg_value(a, "--digest-row")};
	int64_t *dst[2] = {&ro->first_row, &ro->digest_row};
	for (int i = 0; i < 2; i++) {
		char *end = NULL;
		if (!v[i])
			continue;
		long long x = strtoll(v[i], &end, 10);
		if (*end || end == v[i] || x < 0 || x > INT32_MAX)
			return args_error(a, "%s takes an integer from 0 to 2^31-1, not '%s'",
					  i ? "--digest-row" : "--first-row", v[i]);
		*dst[i] = x;
	}
	if (v[1] && !ro->check)
		return args_error(a,
				  "--digest-row needs --check (the digest is of the checked run)");
	return 0;
}

static int
run_run(const Args *a)
{
	const char *path = a->operands[0], *ptx_file = arg_value(a, "--ptx");
	const char *man_file = arg_value(a, "--manifest");
	const char *const *shapes = arg_values(a, "--shape");
	int nshapes = arg_count(a, "--shape"), json = arg_count(a, "--json");
	Request co;
	RunOpts ro = {.check = arg_count(a, "--check"),
		      .time = arg_count(a, "--time"),
		      .regions = arg_count(a, "--regions")};
	if (tool_request(a, &co) || tool_run_opts(a, &ro))
		return 2;
	co.emit = 1;
	Type dtype = co.dtype;
	if (nshapes == 0 && !man_file)
		return args_error(a, "no --shape given (or --ptx and --manifest)");
	if (!ptx_file != !man_file || (ptx_file && nshapes > 1))
		return args_error(a, "--ptx and --manifest go together, for one shape");
	int64_t Ms[MAX_REPEAT], Ns[MAX_REPEAT];
	for (int s = 0; s < nshapes; s++)
		if (tool_parse_shape("run", shapes[s], &Ms[s], &Ns[s]))
			return 2;
	if (!ro.check && !ro.time && !ro.regions)
		ro.check = ro.time = 1;
	if (rows_opts(a, &ro))
		return 2;
	Kernel *k = tool_load_kernel(path);
	if (!k)
		return 1;
	Diag d = {0};
	char *in_json = NULL, *tol_json = NULL, *ptx_text = NULL, *man_text = NULL;
	Gpu *g = NULL;
	int status = 1;
	if (!(in_json =
		  tool_read_data(arg_value(a, "--inputs"), "inputs.json", &ro.inputs_file, &d)) ||
	    !(tol_json = tool_read_data(arg_value(a, "--tolerances"), "tolerances.json",
					&ro.tol_file, &d)))
		goto out;
	ro.inputs_json = in_json;
	ro.tol_json = tol_json;
	if (ptx_file && (!(ptx_text = read_file(ptx_file, NULL, &d)) ||
			 !(man_text = read_file(man_file, NULL, &d))))
		goto out;
	if (!(g = gpu_open(&d)))
		goto out;
	if (!json)
		printf("device: %s\n", gpu_describe(g));
	status = 0;
	for (int s = 0; s < (ptx_file ? 1 : nshapes); s++) {
		Manifest m;
		RunResult r;
		int rc;
		d = (Diag){0};
		if (ptx_file) {
			rc = manifest_parse(&m, man_file, man_text, &d);
			if (!rc && nshapes && (Ms[0] != m.M || Ns[0] != m.N))
				rc = diag(&d, "--shape %s does not match the manifest's %lldx%lld",
					  shapes[0], (long long)m.M, (long long)m.N);
			if (!rc && m.dtype != dtype)
				rc = diag(&d, "--dtype %s does not match the manifest's %s",
					  tool_dtype_name(dtype), tool_dtype_name(m.dtype));
		} else {
			Request rq = co;
			rq.k = k;
			rq.dtype = dtype;
			rq.M = Ms[s];
			rq.N = Ns[s];
			rc = run_stampings(&r, &m, g, k, &rq, &ro, &d);
		}
		if (!rc && ptx_file)
			rc = run_point(&r, g, k, &m, ptx_text, &ro, &d);
		if (rc) {
			const char *where = ptx_file ? man_file : shapes[s];
			fprintf(stderr, "rkc run: %s %s %s: %s\n", k->name, tool_dtype_name(dtype),
				where, d.msg);
			if (json)
				print_error_json(g, k, dtype, where, d.msg);
			else
				printf("RESULT kernel=%s dtype=%s shape=%s status=ERROR\n", k->name,
				       type_name(dtype), where);
			fflush(stdout);
			status = 1;
			continue;
		}
		if (json) {
			print_point_json(g, k, &m, &r);
		} else {
			Buf out = {0};
			run_report(&out, k, &m, &r);
			fputs(out.s, stdout);
			buf_free(&out);
		}
		fflush(stdout);
		if (ro.check && !r.pass)
			status = 1;
		if (r.copy_gbps > 0)
			ro.copy_gbps = r.copy_gbps;
	}
	d.set = 0;
out:
	if (d.set)
		fprintf(stderr, "rkc run: %s\n", d.msg);
	gpu_close(g);
	free(in_json);
	free(tol_json);
	free(ptx_text);
	free(man_text);
	kernel_free(k);
	return status;
}

const Cmd cmd_run = {
    .name = "run",
    .operands = "K.rk",
    .min_operands = 1,
    .max_operands = 1,
    .missing = "no kernel file given",
    .summary = "On a GPU: run a kernel at each shape; check it against the reference, and time it.",
    .opts =
	(const Opt[]){
	    {"--shape", "MxN", OPT_SHAPE_HELP, OPT_REPEAT},
	    OPT_DTYPE,
	    OPT_ARCH,
	    OPT_POLICY,
	    OPT_CONFIG,
	    OPT_BATCH_INVARIANT,
	    {"--check", NULL, "check the results (without --check, --time or --regions: both)", 0},
	    {"--time", NULL, "time the kernel with the L2 flushed before each launch", 0},
	    {"--regions", NULL,
	     "compile with phase stamps; one more launch, L2 flushed, and a table of "
	     "its regions; with --time the kernel without them is timed too, on the same "
	     "buffers, and under the sampling rule every block stamped too, the cheaper kept",
	     0},
	    OPT_REGIONS_EVERY,
	    OPT_SEED,
	    OPT_COPY_GBPS,
	    {"--first-row", "F",
	     "the inputs are rows F.. of the seed's stream of rows (default 0): the same row at "
	     "another position",
	     0},
	    {"--digest-row", "P",
	     "print a DIGEST line per output: a hash of row P's bits (with --check)", 0},
	    {"--pad", "P",
	     "[M,N] arrays with rows N+P elements apart (the row stride), the padding poisoned "
	     "and checked unwritten",
	     0},
	    {"--ptx", "FILE", "run this PTX instead of compiling (with --manifest, one shape)", 0},
	    {"--manifest", "FILE", "the launch manifest of --ptx (rkc compile writes it)", 0},
	    OPT_INPUTS,
	    OPT_TOLERANCES,
	    {"--json", NULL, "a JSON object a line for each shape instead of the report", 0},
	    {0},
	},
    .about = "Prints the device, then for each shape the config, each output's error against the "
	     "reference,\nthe time, and a RESULT line. Exit 1 when a check fails or a shape cannot "
	     "run.\n",
    .run = run_run,
};
