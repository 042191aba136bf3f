/* The generated code, run: each point of a list is lowered for the host, run over its whole grid
 * by the emulator (threads, shuffles, barriers, atomics as on the GPU), and its outputs are
 * checked against the float64 interpreter with the runtime's checks: Helion's tolerances, every
 * element written (two runs with different poison), no NaN. Launching twice also checks that
 * split rows leave their workspace zeroed.
 * With --regions each point is compiled with the region stamps (docs/regions.md) too, and every
 * row block's slot must be stamped for every region the manifest lists, in order, by the CTA
 * that ran it.
 * A line ending in pad=P runs with strided rows: the i-th [M,N] array (from 0) has rows of
 * N + (i+1)*P elements (so the arrays' strides differ), the padding poisoned; a kernel that reads
 * it reads NaN, and one that writes it fails the point.
 * A line ending in at=M2 is compiled for its MxN and launched at M2 rows (the manifest's promise:
 * any M at launch, the grid and the workspace following it).
 *   emulate [--regions] LIST      lines "kernel MxN dtype k=v,... [pad=P | every=E | arch=A |
 *                                 at=M2]" (every: --regions-every) */
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

/* The arrays as the kernel sees them: an [M,N] array's rows stride[p] elements apart in its own
 * buffer (buf[p]), every other array the tensor's data. */
typedef struct {
	int64_t *stride; /* per param, elements; N when not padded */
	char **buf;	 /* per param: the strided copy of an [M,N] array, else NULL */
	int64_t pad_written;
} Rows;

static size_t
esize(const Tensor *t)
{
	return (size_t)type_size(t->type);
}

/* c: the compile, lowered at c->M; cl: the launch, the same but for its M. */
static int
run(const Kernel *k, const Compile *c, const Compile *cl, Tensor *ts, Rows *rw, void *ws,
    Stamps *rg, unsigned char poison, char **out, Diag *d)
{
	int np = k->nparams;
	int *tiles = calloc((size_t)np + 1, sizeof *tiles);
	int ns = codegen_strides(k, tiles);
	void **args = calloc((size_t)np + ns + 4, sizeof *args);
	void **ptrs = calloc((size_t)np, sizeof *ptrs);
	float *f = calloc((size_t)np, sizeof *f);
	int64_t M = cl->M, N = c->N;
	for (int p = 0; p < np; p++) {
		const Param *pa = &k->params[p];
		if (pa->kind == P_PARAM) {
			f[p] = (float)pa->def;
			args[p] = &f[p];
			continue;
		}
		char *at = rw->buf[p] ? rw->buf[p] : ts[p].data;
		size_t bytes = rw->buf[p] ? (size_t)(M * rw->stride[p]) * esize(&ts[p])
					  : (size_t)ts[p].count * esize(&ts[p]);
		if (pa->kind == P_OUT)
			memset(at, poison, bytes);
		else if (rw->buf[p]) /* the padding reads as NaN (0xff bytes) */
			rows_pad(at, ts[p].data, M, N, rw->stride[p], esize(&ts[p]), 0xff);
		ptrs[p] = at;
		args[p] = &ptrs[p];
	}
	args[np] = &M;
	args[np + 1] = &N;
	int na = np + 2;
	for (int i = 0; i < ns; i++)
		args[na++] = &rw->stride[tiles[i]];
	Launch l;
	codegen_launch(k, cl, &l);
	if (l.workspace_bytes > 0) /* split rows, the dynamic grid's counters */
		args[na++] = &ws;
	if (c->regions) {
		memset(rg->st, 0, rg->bytes);
		args[na++] = &rg->st;
	}
	int rc = codegen_emulate(k, c, args, d);
	for (int p = 0; p < np; p++)
		if (k->params[p].kind == P_OUT && rw->buf[p])
			rw->pad_written += rows_unpad(out[p], rw->buf[p], M, N, rw->stride[p],
						      esize(&ts[p]), poison);
		else if (k->params[p].kind == P_OUT)
			memcpy(out[p], ts[p].data, (size_t)ts[p].count * esize(&ts[p]));
	free(tiles);
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

/* The slots (row blocks) the sampling rule names stamped, and no other (without the work counter;
 * with it, at least one), each with every region in order (regions_reduce checks the order), by
 * the CTA that ran it: without the work counter, CTA c runs blocks c, c + grid.x, ... */
static int
stamps_check(const Stamps *rg, const Compile *c, Diag *d)
{
	RegionTable t;
	const MRegions *info = &rg->m.regions;
	int64_t ctas = rg->m.grid[0], W = info->words, want = 0;
	if (info->every != regions_every(c))
		return diag(d, "the manifest samples 1 block in %d, regions_every %d", info->every,
			    regions_every(c));
	if (regions_reduce(&t, info, rg->st, ctas, d))
		return -1;
	for (int64_t s = 0; !c->cfg.dynamic && s < info->slots; s++) {
		int on = regions_slot_stamped(info->every, s, c->cfg.grid, config_segments(&c->cfg),
					      (c->M + c->cfg.m_block - 1) / c->cfg.m_block);
		want += on;
		if (on != (rg->st[s * W] != 0))
			return diag(d, "slot %lld is %sstamped, the sampling rule says %s",
				    (long long)s, on ? "not " : "", on ? "yes" : "no");
		if (on && rg->st[s * W] != (uint64_t)(s % ctas) + 1)
			return diag(d, "slot %lld names CTA %lld, not %lld", (long long)s,
				    (long long)rg->st[s * W] - 1, (long long)(s % ctas));
	}
	if (!c->cfg.dynamic && t.blocks != want)
		return diag(d, "%lld slots stamped, the sampling rule names %lld",
			    (long long)t.blocks, (long long)want);
	/* every block stamped: each CTA's whole life, for every CTA that ran one (a static order:
	 * the first min(grid, slots)) */
	int64_t lived = info->slots < ctas ? info->slots : ctas;
	if (info->every == 1 && (t.lives_ctas == 0 || (!c->cfg.dynamic && t.lives_ctas != lived)))
		return diag(d, "every block stamped, yet %lld CTAs' lives measured, not %lld",
			    (long long)t.lives_ctas, (long long)lived);
	for (int i = 0; i < t.n; i++) {
		/* after the grid's blocks, where every CTA waits for the grid (a wait over it):
		 * each CTA's wait ends after every CTA's arrival (every block stamped, so each
		 * CTA's last block is: under sampling a CTA's last block may not be). A CTA arrives
		 * in its last slot, so the latest start over the slots is the last arrival, and a
		 * CTA's wait ends at the latest end over its slots. A combine that waited for less
		 * (or a stamp placed before the wait's end) fails it wherever a CTA arrives later
		 * than another leaves. */
		if (info->r[i].grid && info->every == 1) {
			uint64_t last = 0;
			for (int64_t s = 0; s < info->slots; s++)
				if (rg->st[s * W + 1 + i] > last)
					last = rg->st[s * W + 1 + i];
			uint64_t *end = calloc((size_t)ctas + 1, sizeof *end);
			if (!end)
				return diag(d, "out of memory");
			for (int64_t s = 0; s < info->slots; s++) {
				uint64_t cta = rg->st[s * W];
				if (cta && rg->st[s * W + 2 + i] > end[cta - 1])
					end[cta - 1] = rg->st[s * W + 2 + i];
			}
			int64_t early = 0;
			for (int64_t c = 0; c < ctas; c++)
				early += end[c] && end[c] < last;
			free(end);
			if (early)
				return diag(d,
					    "region %s: %lld CTA(s) end their wait before the last "
					    "CTA arrives",
					    t.r[i].name, (long long)early);
		}
	}
	return 0;
}

/* Returns the number of failed outputs, or -1 when the point could not run. pad: the rows of
 * the i-th [M,N] array are N + (i+1)*pad elements apart (0: dense). at: the M it is launched at
 * (0: the compiled one). */
static int
point(const char *line, const Kernel *k, Compile *c, int64_t pad, int64_t at)
{
	Compile launched = *c;
	if (at > 0)
		launched.M = at;
	const Compile *cc = c; /* the compile; c from here on is the launch */
	c = &launched;
	Diag d = {0};
	int np = k->nparams, bad = -1;
	Rows rw = {calloc((size_t)np + 1, sizeof(int64_t)), calloc((size_t)np + 1, sizeof(char *)),
		   0};
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
	for (int p = 0, i = 0; p < np; p++) {
		const Param *pa = &k->params[p];
		if (pa->kind == P_PARAM)
			continue;
		rw.stride[p] = c->N;
		if (pa->shape == SH_TILE && pad > 0) {
			rw.stride[p] = c->N + ++i * pad;
			rw.buf[p] = malloc((size_t)(c->M * rw.stride[p]) * esize(&ts[p]));
		}
		if (pa->kind == P_OUT) {
			size_t n = (size_t)ts[p].count * esize(&ts[p]);
			ts[p].data = malloc(n ? n : 1);
			run1[p] = malloc(n ? n : 1);
			run2[p] = malloc(n ? n : 1);
		}
	}
	int64_t nrows = sample_rows(k, c->M, c->N, &rows);
	if (reference_rows(ref, k, ts, c->M, c->N, rows, nrows, &d) ||
	    run(k, cc, c, ts, &rw, ws, &rg, 0xff, run1, &d) ||
	    run(k, cc, c, ts, &rw, ws, &rg, 0x00, run2, &d) ||
	    (c->regions && stamps_check(&rg, c, &d)))
		goto out;
	if (rw.pad_written) {
		diag(&d, "%lld padding elements between rows written", (long long)rw.pad_written);
		goto out;
	}
	/* every counter is back at zero for the next launch (the partials need not be) */
	for (int r = 0; r < l.nws && !d.set; r++) {
		int64_t at = codegen_ws_offset(&l, l.ws[r].name, c->M);
		int64_t n = l.ws[r].per_row * c->M + l.ws[r].fixed;
		for (int64_t i = at; strstr(l.ws[r].name, "counters") && i < at + n; i++)
			if (((unsigned char *)ws)[i] != 0) {
				diag(&d, "workspace %s not reset to zero (byte %lld)", l.ws[r].name,
				     (long long)(i - at));
				break;
			}
	}
	if (d.set)
		goto out;
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
		/* as rkc run checks: an [N] output is one row, compared whole */
		int vec = pa->shape == SH_VEC;
		int64_t zero = 0, cols = pa->shape == SH_ROW ? 1 : c->N;
		check_output(&ck, ts[p].type, run1[p], run2[p], ts[p].count, cols,
			     vec ? &zero : rows, vec ? 1 : nrows, ref[p], tol);
		if (!ck.pass) {
			printf(
			    "FAIL %s %s: %s error %.3g (tolerance %.3g), %lld non-finite (%lld as "
			    "the reference), %lld unwritten\n",
			    c->arch, line, pa->name, ck.err, ck.tol, (long long)ck.nonfinite,
			    (long long)ck.as_ref, (long long)ck.unwritten);
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
		free(rw.buf[p]);
	}
	free(rw.buf);
	free(rw.stride);
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
		char kn[64], dt[16], cfg[256], path[128], extra[32] = "", arch[16] = "sm_90";
		long long M, N, pad = 0, at = 0;
		int every = 0;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = 0;
		int got =
		    sscanf(line, "%63s %lldx%lld %15s %255s %31s", kn, &M, &N, dt, cfg, extra);
		if (got < 5 || (got == 6 && !(sscanf(extra, "pad=%lld", &pad) == 1 && pad >= 1) &&
				!(sscanf(extra, "every=%d", &every) == 1 && every >= 1) &&
				!(sscanf(extra, "arch=%15s", arch) == 1) &&
				!(sscanf(extra, "at=%lld", &at) == 1 && at >= 1))) {
			fprintf(stderr, "%s: bad line: %s\n", argv[1], line);
			return 1;
		}
		Compile c = {
		    .arch = arch, .M = M, .N = N, .regions = regions, .regions_every = every};
		if (strstr(kn, ".rk")) /* a kernel file of its own */
			snprintf(path, sizeof path, "%s", kn);
		else
			snprintf(path, sizeof path, "testdata/kernels/%s.rk", kn);
		char *src = read_file(path, NULL, &d);
		Kernel *k = src ? parse_kernel(path, src, &d) : NULL;
		free(src);
		if (!k || dtype_parse(dt, &c.dtype) || config_parse(cfg, &c.cfg, &d) ||
		    codegen_check(k, &c, &d)) {
			fprintf(stderr, "%s: %s\n", line, d.msg);
			kernel_free(k);
			fclose(f);
			free(inputs_json);
			free(tol_json);
			return 1;
		}
		int bad = point(line, k, &c, pad, at);
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
