/* The generated code, run: each point of a list is lowered for the host, run over its whole grid
 * by the emulator (threads, shuffles, barriers, atomics as on the GPU), and its outputs are
 * checked against the float64 interpreter with the runtime's checks: Helion's tolerances, every
 * element written (two runs with different poison), no NaN. Launching twice also checks that
 * split rows leave their workspace zeroed.
 * With --regions each point is compiled with the region stamps (docs/regions.md) too, and every
 * CTA must stamp every region the manifest lists, in order, each start at or after the last end.
 *   emulate [--regions] LIST      lines "kernel MxN dtype k=v,..." (all six knobs) */
#include <stdlib.h>
#include <string.h>

#include "codegen/codegen.h"
#include "frontends/frontends.h"
#include "runtime/runtime.h"

static char *inputs_json, *tol_json;

/* --regions: each launch's stamps, and their layout from the manifest. */
typedef struct {
	Manifest m;
	uint64_t *st;
	size_t bytes;
} Stamps;

static int
run(const Kernel *k, const Compile *c, Tensor *ts, void *ws, Stamps *rg, unsigned char poison,
    char **out, Diag *d)
{
	int np = k->nparams;
	void **args = calloc((size_t)np + 4, sizeof *args);
	void **ptrs = calloc((size_t)np, sizeof *ptrs);
	float *f = calloc((size_t)np, sizeof *f);
	int64_t M = c->M, N = c->N;
	for (int p = 0; p < np; p++) {
		const Param *pa = &k->params[p];
		if (pa->kind == P_PARAM) {
			f[p] = (float)pa->def;
			args[p] = &f[p];
			continue;
		}
		if (pa->kind == P_OUT)
			memset(ts[p].data, poison,
			       (size_t)ts[p].count * (size_t)type_size(ts[p].type));
		ptrs[p] = ts[p].data;
		args[p] = &ptrs[p];
	}
	args[np] = &M;
	args[np + 1] = &N;
	int na = np + 2;
	Launch l;
	codegen_launch(k, c, &l);
	if (l.workspace_bytes > 0) /* split rows, the dynamic grid's counters */
		args[na++] = &ws;
	if (c->regions) {
		memset(rg->st, 0, rg->bytes);
		args[na++] = &rg->st;
	}
	int rc = codegen_emulate(k, c, args, d);
	for (int p = 0; p < np; p++)
		if (k->params[p].kind == P_OUT)
			memcpy(out[p], ts[p].data,
			       (size_t)ts[p].count * (size_t)type_size(ts[p].type));
	free(args);
	free(ptrs);
	free(f);
	return rc;
}

/* The manifest a compile with regions writes, and a buffer for the stamps it describes. */
static int
stamps_new(Stamps *rg, const Kernel *k, const Compile *c, Diag *d)
{
	Buf man = {0};
	codegen_manifest(&man, k, c, "rkc", 0, NULL, 0);
	int rc = manifest_parse(&rg->m, "<manifest>", man.s, d);
	buf_free(&man);
	if (rc)
		return -1;
	rg->bytes = (size_t)rg->m.params[rg->m.nparams - 1].bytes;
	if (rg->m.params[rg->m.nparams - 1].kind != MP_REGIONS || rg->m.regions.n == 0)
		return diag(d, "--regions: the manifest has no regions");
	rg->st = calloc(1, rg->bytes);
	return 0;
}

/* Every CTA stamped every region, in order (regions_reduce checks the order). */
static int
stamps_check(const Stamps *rg, Diag *d)
{
	RegionTable t;
	if (regions_reduce(&t, &rg->m.regions, rg->st, rg->m.grid[0], d))
		return -1;
	for (int i = 0; i < t.n; i++)
		if (t.r[i].ctas != rg->m.grid[0])
			return diag(d, "region %s stamped by %lld of %u CTAs", t.r[i].name,
				    (long long)t.r[i].ctas, rg->m.grid[0]);
	return 0;
}

/* Returns the number of failed outputs, or -1 when the point could not run. */
static int
point(const char *line, const Kernel *k, Compile *c)
{
	Diag d = {0};
	int np = k->nparams, bad = -1;
	Dist *dists = calloc((size_t)np, sizeof *dists);
	Tensor *ts = calloc((size_t)np, sizeof *ts);
	char **run1 = calloc((size_t)np, sizeof *run1), **run2 = calloc((size_t)np, sizeof *run2);
	double **ref = calloc((size_t)np, sizeof *ref);
	int64_t *rows = NULL;
	Launch l;
	codegen_launch(k, c, &l);
	void *ws = calloc(1, (size_t)l.workspace_bytes + 16);
	Stamps rg = {.st = NULL};
	if ((c->regions && stamps_new(&rg, k, c, &d)) ||
	    inputs_spec(dists, k, "testdata/inputs.json", inputs_json, &d) ||
	    inputs_make(ts, k, c->dtype, c->M, c->N, 1234, dists, &d))
		goto out;
	for (int p = 0; p < np; p++)
		if (k->params[p].kind == P_OUT) {
			size_t n = (size_t)ts[p].count * (size_t)type_size(ts[p].type);
			ts[p].data = malloc(n ? n : 1);
			run1[p] = malloc(n ? n : 1);
			run2[p] = malloc(n ? n : 1);
		}
	int64_t nrows = sample_rows(c->M, c->N, &rows);
	if (reference_rows(ref, k, ts, c->M, c->N, rows, nrows, &d) ||
	    run(k, c, ts, ws, &rg, 0xff, run1, &d) || run(k, c, ts, ws, &rg, 0x00, run2, &d) ||
	    (c->regions && stamps_check(&rg, &d)))
		goto out;
	for (int64_t i = 0; i < l.workspace_bytes; i++)
		if (((unsigned char *)ws)[i] != 0 && i < (c->M * 4 + 15) / 16 * 16) {
			diag(&d, "split counters not reset to zero");
			goto out;
		}
	bad = 0;
	for (int p = 0, oi = 0; p < np; p++) {
		const Param *pa = &k->params[p];
		if (pa->kind != P_OUT)
			continue;
		double tol = 0;
		if (type_is_float(ts[p].type) &&
		    tolerance(&tol, k->name, oi, check_dtype(k, c->dtype),
			      "testdata/tolerances.json", tol_json, &d)) {
			bad = -1;
			goto out;
		}
		Check ck;
		int64_t cols = pa->shape == SH_TILE ? c->N : 1;
		check_output(&ck, ts[p].type, run1[p], run2[p], ts[p].count, cols, rows, nrows,
			     ref[p], tol);
		if (!ck.pass) {
			printf("FAIL %s %s: %s error %.3g (tolerance %.3g), %lld non-finite, %lld "
			       "unwritten\n",
			       c->arch, line, pa->name, ck.err, ck.tol, (long long)ck.nonfinite,
			       (long long)ck.unwritten);
			bad++;
		}
		oi++;
	}
out:
	if (bad < 0)
		printf("FAIL %s: %s\n", line, d.msg);
	for (int p = 0; p < np; p++) {
		free(run1[p]);
		free(run2[p]);
		free(ref[p]);
	}
	tensors_free(ts, np);
	free(ts);
	free(run1);
	free(run2);
	free(ref);
	free(rows);
	free(dists);
	free(ws);
	free(rg.st);
	return bad;
}

int
main(int argc, char **argv)
{
	int regions = argc == 3 && !strcmp(argv[1], "--regions");
	if (argc != 2 + regions) {
		fputs("usage: emulate [--regions] LIST\n", stderr);
		return 2;
	}
	argv += regions;
	Diag d = {0};
	inputs_json = read_file("testdata/inputs.json", NULL, &d);
	tol_json = read_file("testdata/tolerances.json", NULL, &d);
	FILE *f = fopen(argv[1], "r");
	if (!inputs_json || !tol_json || !f) {
		fprintf(stderr, "%s\n", d.set ? d.msg : "cannot open the list");
		return 1;
	}
	char line[512];
	int n = 0, fails = 0;
	while (fgets(line, sizeof line, f)) {
		char kn[64], dt[16], cfg[256], path[128];
		long long M, N;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "%63s %lldx%lld %15s %255s", kn, &M, &N, dt, cfg) != 5) {
			fprintf(stderr, "%s: bad line: %s\n", argv[1], line);
			return 1;
		}
		Compile c = {.arch = "sm_90", .M = M, .N = N, .regions = regions};
		if (strstr(kn, ".rk")) /* a kernel file of its own */
			snprintf(path, sizeof path, "%s", kn);
		else
			snprintf(path, sizeof path, "testdata/kernels/%s.rk", kn);
		char *src = read_file(path, NULL, &d);
		Kernel *k = src ? parse_kernel(path, src, &d) : NULL;
		free(src);
		if (!k || dtype_parse(dt, &c.dtype) || config_parse(cfg, &c.cfg, &d)) {
			fprintf(stderr, "%s: %s\n", line, d.msg);
			return 1;
		}
		int bad = point(line, k, &c);
		fails += bad != 0;
		n++;
		kernel_free(k);
	}
	fclose(f);
	free(inputs_json);
	free(tol_json);
	printf("%d points emulated, %d failed\n", n, fails);
	return fails ? 1 : 0;
}
