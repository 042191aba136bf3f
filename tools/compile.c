/* rkc compile: a kernel and a chosen or forced config to PTX, plus its launch manifest. */
#include <stdlib.h>
#include <string.h>

#include "codegen/codegen.h"
#include "tools/tools.h"

/* out.ptx -> out.json; any other name gets .json appended. */
static char *
manifest_path(const char *ptx)
{
	size_t n = strlen(ptx);
	char *s = malloc(n + 6);
	if (n > 4 && !strcmp(ptx + n - 4, ".ptx"))
		n -= 4;
	memcpy(s, ptx, n);
	strcpy(s + n, ".json");
	return s;
}

static void
print_ptxas(FILE *f, const char *arch, const PtxasFunc *p)
{
	fprintf(f,
		"ptxas %s %s: %d registers, %ld bytes spill stores, %ld bytes spill loads, %ld "
		"bytes stack, %ld bytes smem, %d barriers\n",
		arch, p->name, p->regs, p->spill_stores, p->spill_loads, p->stack, p->smem,
		p->barriers);
}

static int
usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "rkc compile: error: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
	fputs("usage: rkc compile K.rk --shape MxN --dtype bf16|fp16|fp32 [--arch sm_90] "
	      "[--policy rkc|helion2828] [--config k=v,...] [--ptxas] -o out.ptx\n",
	      stderr);
	return 2;
}

int
cmd_compile(int argc, char **argv)
{
	const char *path = NULL, *shape = NULL, *dtype = NULL, *arch = "sm_90", *policy = "rkc";
	const char *forced = NULL, *out = NULL;
	int run_ptxas = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **slot = !strcmp(a, "--shape")    ? &shape
				    : !strcmp(a, "--dtype")  ? &dtype
				    : !strcmp(a, "--arch")   ? &arch
				    : !strcmp(a, "--policy") ? &policy
				    : !strcmp(a, "--config") ? &forced
				    : !strcmp(a, "-o")	     ? &out
							     : NULL;
		if (slot) {
			if (i + 1 >= argc)
				return usage_error("missing value after", a);
			*slot = argv[++i];
		} else if (!strcmp(a, "--ptxas")) {
			run_ptxas = 1;
		} else if (a[0] == '-' && a[1]) {
			return usage_error("unknown option", a);
		} else if (path) {
			return usage_error("one kernel file at a time:", a);
		} else {
			path = a;
		}
	}
	if (!path)
		return usage_error("no kernel file given", NULL);
	if (!out)
		return usage_error("no output given (-o out.ptx, or -o - for stdout)", NULL);
	Compile c = {.arch = arch};
	if (!shape)
		return usage_error("no --shape given", NULL);
	if (tool_parse_shape("compile", shape, &c.M, &c.N) ||
	    (forced && tool_check_config("compile", forced)))
		return 2;
	if (!dtype || dtype_parse(dtype, &c.dtype))
		return usage_error("--dtype needs bf16, fp16 or fp32, got",
				   dtype ? dtype : "nothing");
	Policy p;
	if (policy_parse(policy, &p))
		return usage_error("--policy needs rkc or helion2828, got", policy);

	Kernel *k = tool_load_kernel(path);
	if (!k)
		return 1;
	Diag d = {0};
	Target t;
	Facts f;
	Choice ch;
	Buf ptx = {0}, man = {0}, log = {0};
	const char **reasons = NULL;
	char *mpath = NULL;
	int rc = 1;
	/* codegen takes any of its archs; the choice needs a target file, so an Ampere/Ada part
	 * without one is chosen for as sm_80 and the reasons say so. The probe keeps no message:
	 * a Diag keeps its first, which would stand in for every later error. */
	int own_target = target_load(arch, &t, NULL) == 0;
	if (!own_target) {
		Diag d2 = {0};
		if (codegen_arch(arch, &d2) || target_load("sm_80", &t, &d2)) {
			fprintf(stderr, "rkc compile: %s\n", d2.msg);
			goto out;
		}
	}
	facts_compute(k, c.dtype, &f);
	if (choose(k, &f, c.M, c.N, &t, p, &ch, &d)) {
		fprintf(stderr, "rkc compile: %s\n", d.msg);
		goto out;
	}
	c.cfg = ch.cfg;
	if (forced && config_force(&c.cfg, forced, k, &f, c.M, c.N, &t, p, &d)) {
		const char *m = strncmp(d.msg, "error: ", 7) ? d.msg : d.msg + 7;
		fprintf(stderr, "rkc compile: error: infeasible --config '%s': %s\n", forced, m);
		goto out;
	}
	if (codegen_ptx(k, &c, &ptx, NULL, &d)) {
		fprintf(stderr, "%s: %s\n", path, d.msg);
		goto out;
	}
	if (run_ptxas) {
		if (ptxas_run(ptx.s, arch, &log, &d)) {
			fprintf(stderr, "rkc compile: %s\n", d.msg);
			goto out;
		}
		PtxasFunc pf[8];
		int n = ptxas_parse(log.s ? log.s : "", pf, 8);
		for (int i = 0; i < n; i++)
			print_ptxas(strcmp(out, "-") ? stdout : stderr, arch, &pf[i]);
	}
	if (!strcmp(out, "-")) {
		rc = tool_write_file("-", ptx.s, ptx.len) ? 1 : 0;
		goto out;
	}
	int nr = 0;
	reasons = malloc(sizeof(char *) * (MAX_REASONS + 2));
	char fr[600], tr[100];
	if (forced) {
		snprintf(fr, sizeof fr, "--config %s forced over the %s policy's choice", forced,
			 policy_name(p));
		reasons[nr++] = fr;
	}
	if (!own_target) {
		snprintf(tr, sizeof tr, "no target data for %s: chosen with sm_80's", arch);
		reasons[nr++] = tr;
	}
	for (int i = 0; i < ch.nreasons; i++)
		reasons[nr++] = ch.reasons[i];
	codegen_manifest(&man, k, &c, policy_name(p), reasons, nr);
	/* both files are built before either is written, each written whole or not at all */
	mpath = manifest_path(out);
	if (tool_write_file(out, ptx.s, ptx.len) || tool_write_file(mpath, man.s, man.len))
		goto out;
	rc = 0;
out:
	free(reasons);
	free(mpath);
	buf_free(&ptx);
	buf_free(&man);
	buf_free(&log);
	kernel_free(k);
	return rc;
}
