/* rkc run: compile (or take PTX and its manifest), then check and time on the GPU. */
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"
#include "tools/tools.h"

#define MAX_SHAPES 64

/* Options that take a value, each between spaces so a prefix does not match. */
static const char value_opts[] = " --shape --dtype --arch --policy --config --seed --copy-gbps "
				 "--ptx --manifest --inputs --tolerances ";

static int
is_value_opt(const char *a)
{
	char key[64];
	snprintf(key, sizeof key, " %s ", a);
	return strstr(value_opts, key) != NULL;
}

static const char run_usage[] =
    "usage: rkc run K.rk --shape MxN [--shape ...] --dtype bf16|f16|f32 [--arch sm_90]\n"
    "       [--policy rkc|helion2828] [--config key=value,...] [--check] [--time] [--seed S]\n"
    "       [--copy-gbps X] [--ptx FILE --manifest FILE] [--inputs FILE] [--tolerances FILE]\n"
    "A shape BxLxN runs as M = B*L rows. Without --check or --time, both.\n";

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

int
cmd_run(int argc, char **argv)
{
	const char *path = NULL, *dtype_s = NULL, *ptx_file = NULL, *man_file = NULL;
	const char *inputs = NULL, *tols = NULL;
	const char *shapes[MAX_SHAPES];
	int nshapes = 0;
	Request co = {.arch = "sm_90", .policy = POLICY_RKC, .emit = 1};
	RunOpts ro = {.seed = 1};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		int takes = 1;
		if (a[0] == '-' && a[1] && !is_value_opt(a) && strcmp(a, "--check") &&
		    strcmp(a, "--time")) {
			fprintf(stderr, "rkc run: error: unknown option '%s'\n%s", a, run_usage);
			return 2;
		}
		if (!strcmp(a, "--check"))
			ro.check = 1, takes = 0;
		else if (!strcmp(a, "--time"))
			ro.time = 1, takes = 0;
		else if (a[0] == '-' && a[1] && !v) {
			fprintf(stderr, "rkc run: error: '%s' needs a value\n%s", a, run_usage);
			return 2;
		} else if (!strcmp(a, "--shape")) {
			if (nshapes == MAX_SHAPES) {
				fprintf(stderr, "rkc run: error: at most %d shapes\n", MAX_SHAPES);
				return 2;
			}
			shapes[nshapes++] = v;
		} else if (!strcmp(a, "--dtype"))
			dtype_s = v;
		else if (!strcmp(a, "--arch"))
			co.arch = v;
		else if (!strcmp(a, "--config"))
			co.forced = v;
		else if (!strcmp(a, "--policy")) {
			Diag e = {0};
			if (rkc_parse_policy(v, &co.policy, &e)) {
				fprintf(stderr, "rkc run: %s\n", e.msg);
				return 2;
			}
		} else if (!strcmp(a, "--seed"))
			ro.seed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--copy-gbps"))
			ro.copy_gbps = strtod(v, NULL);
		else if (!strcmp(a, "--ptx"))
			ptx_file = v;
		else if (!strcmp(a, "--manifest"))
			man_file = v;
		else if (!strcmp(a, "--inputs"))
			inputs = v;
		else if (!strcmp(a, "--tolerances"))
			tols = v;
		else if (path) {
			fputs("rkc run: error: one kernel file at a time\n", stderr);
			return 2;
		} else {
			path = a;
			takes = 0;
		}
		i += takes;
	}
	Type dtype = TY_T;
	if (!path || !dtype_s || (nshapes == 0 && !man_file)) {
		fputs(run_usage, stderr);
		return 2;
	}
	Diag e = {0};
	if (rkc_parse_dtype(dtype_s, &dtype, &e) || rkc_parse_arch(co.arch, &e)) {
		fprintf(stderr, "rkc run: %s\n", e.msg);
		return 2;
	}
	if (!ptx_file != !man_file || (ptx_file && nshapes > 1)) {
		fputs("rkc run: error: --ptx and --manifest go together, for one shape\n", stderr);
		return 2;
	}
	int64_t Ms[MAX_SHAPES], Ns[MAX_SHAPES];
	for (int s = 0; s < nshapes; s++)
		if (tool_parse_shape("run", shapes[s], &Ms[s], &Ns[s]))
			return 2;
	if (co.forced && tool_check_config("run", co.forced))
		return 2;
	if (!ro.check && !ro.time)
		ro.check = ro.time = 1;
	Kernel *k = tool_load_kernel(path);
	if (!k)
		return 1;
	Diag d = {0};
	char *in_json = NULL, *tol_json = NULL, *ptx_text = NULL, *man_text = NULL;
	Gpu *g = NULL;
	int status = 1;
	if (!(in_json = tool_read_data(inputs, "inputs.json", &ro.inputs_file, &d)) ||
	    !(tol_json = tool_read_data(tols, "tolerances.json", &ro.tol_file, &d)))
		goto out;
	ro.inputs_json = in_json;
	ro.tol_json = tol_json;
	if (ptx_file && (!(ptx_text = read_file(ptx_file, NULL, &d)) ||
			 !(man_text = read_file(man_file, NULL, &d))))
		goto out;
	if (!(g = gpu_open(&d)))
		goto out;
	printf("device: %s\n", gpu_describe(g));
	status = 0;
	for (int s = 0; s < (ptx_file ? 1 : nshapes); s++) {
		Manifest m;
		Buf ptx = {0};
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
					  dtype_s, type_name(m.dtype));
		} else {
			Request rq = co;
			rq.k = k;
			rq.dtype = dtype;
			rq.M = Ms[s];
			rq.N = Ns[s];
			rc = tool_build(&rq, &ptx, &m, &d);
		}
		if (!rc)
			rc = run_point(&r, g, k, &m, ptx_file ? ptx_text : ptx.s, &ro, &d);
		buf_free(&ptx);
		if (rc) {
			fprintf(stderr, "rkc run: %s %s %s: %s\n", k->name, dtype_s,
				ptx_file ? man_file : shapes[s], d.msg);
			printf("RESULT kernel=%s dtype=%s shape=%s status=ERROR\n", k->name,
			       type_name(dtype), ptx_file ? man_file : shapes[s]);
			status = 1;
			continue;
		}
		Buf out = {0};
		run_report(&out, k, &m, &r);
		fputs(out.s, stdout);
		fflush(stdout);
		buf_free(&out);
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
