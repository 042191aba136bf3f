/* rkc table: kernels compiled at a representative shape each and assembled, in one table. */
#include <glob.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tools.h"

#define DEFAULT_SHAPE 4096 /* rows and columns for a kernel no suite holds */
#define REASON_WIDTH 72	   /* the text table cuts the reason here, with "..." */

/* The middle shape the suites give the kernel (testdata/shapes/core.json, then transfer.json),
 * else DEFAULT_SHAPE x DEFAULT_SHAPE. */
static void
representative(const char *name, int64_t *M, int64_t *N)
{
	static const char *suites[] = {"shapes/core.json", "shapes/transfer.json"};
	*M = *N = DEFAULT_SHAPE;
	for (size_t s = 0; s < sizeof suites / sizeof *suites; s++) {
		const char *used;
		Diag d = {0};
		char *text = tool_read_data(NULL, suites[s], &used, &d);
		json_t *root = text ? json_loads(text, 0, NULL) : NULL;
		free(text);
		json_t *ks = json_object_get(root, "kernels"), *k;
		size_t i;
		int found = 0;
		json_array_foreach(ks, i, k)
		{
			const char *kn = json_string_value(json_object_get(k, "kernel"));
			json_t *shapes = json_object_get(k, "shapes");
			size_t n = json_array_size(shapes);
			if (!kn || strcmp(kn, name) || !n)
				continue;
			json_t *mid = json_array_get(shapes, n / 2);
			*M = json_integer_value(json_array_get(mid, 0));
			*N = json_integer_value(json_array_get(mid, 1));
			found = 1;
			break;
		}
		json_decref(root);
		if (found)
			return;
	}
}

/* The built-in kernels: the .rk files of testdata/kernels here, else in the source tree. */
static int
builtin(glob_t *g)
{
	if (glob("testdata/kernels/*.rk", 0, NULL, g) == 0)
		return 0;
	return glob(RKC_SOURCE_DIR "/testdata/kernels/*.rk", 0, NULL, g) == 0 ? 0 : -1;
}

typedef struct {
	char kernel[64], shape[48], config[64], reason[REASON_LEN], error[520];
	int pred_regs, regs, spill; /* regs -1: not assembled */
	double us;
} Row;

static void
one(Row *row, const char *path, const Request *base, int64_t M, int64_t N, int use_shape,
    int *no_ptxas)
{
	memset(row, 0, sizeof *row);
	row->regs = -1;
	Diag d = {0};
	Kernel *k = tool_load_kernel(path);
	if (!k) {
		snprintf(row->kernel, sizeof row->kernel, "%.60s", path);
		snprintf(row->error, sizeof row->error, "cannot load the kernel");
		return;
	}
	snprintf(row->kernel, sizeof row->kernel, "%s", k->name);
	if (!use_shape)
		representative(k->name, &M, &N);
	snprintf(row->shape, sizeof row->shape, "%lldx%lld", (long long)M, (long long)N);
	Request rq = *base;
	rq.k = k;
	rq.M = M;
	rq.N = N;
	rq.emit = 1;
	Result r;
	if (rkc_compile(&rq, &r, &d)) {
		snprintf(row->error, sizeof row->error, "%s", d.msg);
		goto out;
	}
	Buf cs = {0};
	config_short(&cs, &r.choice.cfg);
	snprintf(row->config, sizeof row->config, "%s", cs.s);
	buf_free(&cs);
	row->pred_regs = r.choice.cost.regs;
	row->us = r.choice.cost.us;
	/* the mode's reason (persistent or looped, and why), else the first (a note) */
	const char *why = r.choice.nreasons ? r.choice.reasons[0] : "";
	for (int i = 0; i < r.choice.nreasons; i++)
		if (!strncmp(r.choice.reasons[i], "persistent", 10) ||
		    !strncmp(r.choice.reasons[i], "looped", 6)) {
			why = r.choice.reasons[i];
			break;
		}
	snprintf(row->reason, sizeof row->reason, "%s", why);
	if (ptxas_path()) {
		Buf log = {0};
		PtxasFunc pf[4];
		if (ptxas_run(r.ptx.s, r.compile.arch, &log, &d) == 0 &&
		    ptxas_parse(log.s ? log.s : "", pf, 4) > 0) {
			row->regs = pf[0].regs;
			row->spill = (int)(pf[0].spill_stores + pf[0].spill_loads);
		} else {
			snprintf(row->error, sizeof row->error, "%s", d.msg);
		}
		buf_free(&log);
	} else {
		*no_ptxas = 1;
	}
out:
	rkc_result_free(&r);
	kernel_free(k);
}

static int
table_run(const Args *a)
{
	const char *dtype = arg_value(a, "--dtype"), *policy = arg_value(a, "--policy");
	Request base = {.arch = arg_value(a, "--arch") ? arg_value(a, "--arch") : "sm_90",
			.guard = 1};
	Diag d = {0};
	if (rkc_parse_dtype(dtype ? dtype : "bf16", &base.dtype, &d) ||
	    rkc_parse_arch(base.arch, &d) ||
	    (policy && rkc_parse_policy(policy, &base.policy, &d))) {
		fprintf(stderr, "rkc table: %s\n", d.msg);
		return 2;
	}
	const char *shape = arg_value(a, "--shape");
	int64_t M = 0, N = 0;
	if (shape && tool_parse_shape("table", shape, &M, &N))
		return 2;
	glob_t g = {0};
	int nk = a->noperands;
	char **paths = a->operands;
	if (!nk) {
		if (builtin(&g)) {
			fprintf(stderr,
				"rkc table: error: no kernels given and no testdata/kernels/*.rk "
				"(run from the source root)\n");
			return 1;
		}
		nk = (int)g.gl_pathc;
		paths = g.gl_pathv;
	}
	int json = arg_count(a, "--json"), no_ptxas = 0, bad = 0;
	if (!json)
		printf("%-24s %-14s %-24s %5s %5s %5s %9s  %s\n", "kernel", "shape", "config",
		       "pred", "regs", "spill", "model us", "why this mode");
	for (int i = 0; i < nk; i++) {
		Row r;
		one(&r, paths[i], &base, M, N, shape != NULL, &no_ptxas);
		bad |= r.error[0] != 0;
		if (json) {
			tool_put_json(json_pack(
			    "{s:s,s:s,s:s,s:i,s:o,s:o,s:f,s:s,s:s}", "kernel", r.kernel, "shape",
			    r.shape, "config", r.config, "predicted_regs", r.pred_regs,
			    "ptxas_regs", r.regs >= 0 ? json_integer(r.regs) : json_null(),
			    "spill_bytes", r.regs >= 0 ? json_integer(r.spill) : json_null(),
			    "modelled_us", r.us, "mode_reason", r.reason, "error", r.error));
			continue;
		}
		if (r.error[0] && !r.config[0]) {
			printf("%-24s %-14s error: %s\n", r.kernel, r.shape, r.error);
			continue;
		}
		char regs[16] = "-", spill[16] = "-";
		if (r.regs >= 0) {
			snprintf(regs, sizeof regs, "%d", r.regs);
			snprintf(spill, sizeof spill, "%d", r.spill);
		}
		printf("%-24s %-14s %-24s %5d %5s %5s %9.1f  %.*s%s\n", r.kernel, r.shape, r.config,
		       r.pred_regs, regs, spill, r.us, REASON_WIDTH, r.reason,
		       strlen(r.reason) > REASON_WIDTH ? "..." : "");
		if (r.error[0])
			printf("%-24s ptxas: %s\n", "", r.error);
	}
	if (!json)
		printf(
		    "\n%s %s, %s policy; config: P persistent / L looped r_block, m rows a CTA, w "
		    "warps,\nv vec, s split, c cluster, S rows in smem (Sa: filled by cp.async), e "
		    "eviction hints, k min "
		    "CTAs an SM; pred: the\nregister model; regs, spill: ptxas -v (spill: bytes "
		    "stored and loaded); model us: the cost model.\n",
		    tool_dtype_name(base.dtype), base.arch, policy_name(base.policy));
	if (no_ptxas)
		fprintf(stderr, "rkc table: warning: ptxas not found (PATH, $CUDA_HOME/bin, "
				"/usr/local/cuda/bin): no ptxas columns\n");
	if (!a->noperands)
		globfree(&g);
	return bad ? 1 : 0;
}

const Cmd cmd_table = {
    .name = "table",
    .operands = "[K.rk...]",
    .min_operands = 0,
    .max_operands = -1,
    .missing = "",
    .summary = "Compile kernels at a representative shape each, assemble them, print one table.",
    .opts =
	(const Opt[]){
	    {"--shape", "MxN", "one shape for every kernel (default: each kernel's own)", 0},
	    {"--dtype", "D", "bf16, fp16 or fp32 (default bf16)", 0},
	    OPT_ARCH,
	    OPT_POLICY,
	    {"--json", NULL, "an object a kernel, a line", 0},
	    {0},
	},
    .about = "Without K.rk, the built-in kernels (testdata/kernels). A kernel's shape is the "
	     "middle one its\nsuite gives it (testdata/shapes/core.json, transfer.json), else "
	     "4096x4096. Each row: the\nconfig the policy picks, the predicted and ptxas's "
	     "registers, ptxas's spill bytes, the\nmodelled time and the reason for the mode "
	     "(persistent or looped). Exit 1 when a kernel\nfails to compile or assemble.\n",
    .run = table_run,
};
