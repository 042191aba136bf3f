/* Compiles a list of points (forced configs, the golden files, or the register model's sweep) to
 * PTX in process, assembles each with ptxas for its arch, two at a time, and fails on any error.
 * ptxas missing is a failure.
 *   ptx_suite forced [--arch ARCH] LIST        lines "kernel MxN dtype k=v,..." (all six knobs),
 *                                              for sm_90 and sm_80, or for ARCH alone
 *   ptx_suite cap [--arch ARCH] LIST           as forced, and ptxas must take exactly the
 *                                              register cap the model uses at each line's
 *                                              min_ctas (target_reg_limit): lines whose
 *                                              kernel wants more than the cap
 *   ptx_suite regions LIST                     as forced, each compiled with --regions, and
 *                                              with as many CTA and cluster barriers as the
 *                                              same compile without
 *   ptx_suite golden FILE...                   every point of each golden file, for its arch
 *   ptx_suite sweep [--widths N,...] [--warps W,...] [--vec V] [--kernels DIR] ARCH...
 *                                              the model against ptxas (docs/regmodel.md),
 *                                              over DIR's kernels (default testdata/kernels),
 *                                              at vector widths up to V (default 16)
 * With PTX_SUITE_REGS set in the environment, every point assembled prints its registers. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "codegen/codegen.h"
#include "frontends/frontends.h"
#include "tests/kernels.h"

typedef struct {
	char kernel[64], arch[8], what[512];
	Compile c;
	int predicted, limit; /* sweep: the register model's estimate and the thread's limit */
	int capped;	      /* sweep: the model's fewest registers under a cap (regs_capped) */
	int regs, spilled;    /* what ptxas did */
} Point;

static Point *pts;
static int npts, cap;

static Point *
add_point(void)
{
	if (npts == cap) {
		cap = cap ? cap * 2 : 256;
		pts = realloc(pts, sizeof *pts * cap);
	}
	memset(&pts[npts], 0, sizeof *pts);
	return &pts[npts++];
}

static Kernel *kernels[64];
static int nkernels;

static Kernel *
kernel_named(const char *name)
{
	for (int i = 0; i < nkernels; i++)
		if (!strcmp(kernels[i]->name, name) || !strcmp(kernels[i]->file, name))
			return kernels[i];
	char path[256];
	if (strstr(name, ".rk")) /* a kernel file of its own */
		snprintf(path, sizeof path, "%s", name);
	else
		snprintf(path, sizeof path, "testdata/kernels/%s.rk", name);
	Diag d = {0};
	char *src = read_file(path, NULL, &d);
	Kernel *k = src ? parse_kernel(path, src, &d) : NULL;
	free(src);
	if (!k || nkernels == 64) {
		fprintf(stderr, "%s\n", d.msg);
		exit(1);
	}
	return kernels[nkernels++] = k;
}

/* forced --arch: the one arch every line is assembled for; NULL: sm_90 and sm_80 */
static const char *forced_arch;

static int
read_forced(const char *list)
{
	FILE *f = fopen(list, "r");
	if (!f) {
		perror(list);
		return -1;
	}
	char line[512];
	while (fgets(line, sizeof line, f)) {
		char kn[64], dt[16], cfg[256];
		long long M, N;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%63s %lldx%lld %15s %255s", kn, &M, &N, dt, cfg) != 5) {
			fprintf(stderr, "%s: bad line: %s", list, line);
			fclose(f);
			return -1;
		}
		/* clusters exist from sm_90 on: a cluster line is assembled for sm_90 only (a
		 * cooperative one, coop=1, for both) */
		Config probe = {0};
		Diag pd = {0};
		int archs = forced_arch || (!config_parse(cfg, &probe, &pd) && probe.cluster > 1 &&
					    !probe.coop)
				? 1
				: 2;
		for (int a = 0; a < archs; a++) {
			Point *p = add_point();
			Diag d = {0};
			snprintf(p->kernel, sizeof p->kernel, "%s", kn);
			snprintf(p->arch, sizeof p->arch, "%s",
				 forced_arch ? forced_arch
				 : a	     ? "sm_80"
					     : "sm_90");
			snprintf(p->what, sizeof p->what, "%s %lldx%lld %s %s", kn, M, N, dt, cfg);
			p->c.M = M;
			p->c.N = N;
			if (dtype_parse(dt, &p->c.dtype) || config_parse(cfg, &p->c.cfg, &d)) {
				fprintf(stderr, "%s: bad dtype or config: %s %s\n", list, line,
					d.msg);
				fclose(f);
				return -1;
			}
		}
	}
	fclose(f);
	return 0;
}

static int
read_golden(const char *file)
{
	json_error_t e;
	json_t *root = json_load_file(file, 0, &e);
	if (!root) {
		fprintf(stderr, "%s:%d: %s\n", file, e.line, e.text);
		return -1;
	}
	const char *arch = json_string_value(json_object_get(root, "arch"));
	json_t *points = json_object_get(root, "points"), *pt;
	size_t i;
	json_array_foreach(points, i, pt)
	{
		Point *p = add_point();
		const char *dt = json_string_value(json_object_get(pt, "dtype"));
		snprintf(p->kernel, sizeof p->kernel, "%s",
			 json_string_value(json_object_get(pt, "kernel")));
		snprintf(p->arch, sizeof p->arch, "%s", arch);
		p->c.M = json_integer_value(json_object_get(pt, "M"));
		p->c.N = json_integer_value(json_object_get(pt, "N"));
		Config *g = &p->c.cfg;
		g->persistent = json_is_true(json_object_get(pt, "persistent"));
		g->r_block = json_integer_value(json_object_get(pt, "r_block"));
		g->m_block = (int)json_integer_value(json_object_get(pt, "m_block"));
		g->num_warps = (int)json_integer_value(json_object_get(pt, "num_warps"));
		g->vec = (int)json_integer_value(json_object_get(pt, "vec"));
		g->split = (int)json_integer_value(json_object_get(pt, "split"));
		g->evict = (int)json_integer_value(json_object_get(pt, "evict"));
		g->min_ctas = (int)json_integer_value(json_object_get(pt, "min_ctas"));
		g->smem = (int)json_integer_value(json_object_get(pt, "smem"));
		g->cluster = (int)json_integer_value(json_object_get(pt, "cluster"));
		g->grid = (int)json_integer_value(json_object_get(pt, "grid"));
		g->dynamic = (int)json_integer_value(json_object_get(pt, "dynamic"));
		g->ahead = (int)json_integer_value(json_object_get(pt, "ahead"));
		g->coop = (int)json_integer_value(json_object_get(pt, "coop"));
		g->stash = (int)json_integer_value(json_object_get(pt, "stash"));
		g->steps = (int)json_integer_value(json_object_get(pt, "steps"));
		g->colpass = (int)json_integer_value(json_object_get(pt, "colpass"));
		snprintf(p->what, sizeof p->what, "%s %lldx%lld %s (%s)", p->kernel,
			 (long long)p->c.M, (long long)p->c.N, dt ? dt : "?", file);
		if (!dt || dtype_parse(dt, &p->c.dtype)) {
			fprintf(stderr, "%s: bad point %zu\n", file, i);
			json_decref(root);
			return -1;
		}
	}
	json_decref(root);
	return 0;
}

/* The sweep's widths: by default the grid the model was calibrated on; --widths gives another
 * (the held-out check in docs/regmodel.md). */
static int64_t widths[16] = {896, 4096, 16384, 50257};
static int nwidths = 4;
/* The sweep's warp counts: by default the powers of two from 2 to 32; --warps gives others (a
 * count that is not a power of two takes one row a CTA only). */
static int64_t warps[32] = {2, 4, 8, 16, 32};
static int nwarps = 5;
/* The sweep's kernels: testdata/kernels, or --kernels DIR (bench/heldout: kernels the model was
 * not fitted on). */
static const char *sweep_dir = "testdata/kernels";
/* The sweep's widest vector: config_vec's, or at most --vec V (1: the scalar accesses of the
 * batch-invariant mode at odd widths). A looped chunk keeps the elements it has at config_vec's
 * width (2, 8 and 16 of those vectors a thread), as the batch-invariant mode keeps r_block. */
static int64_t max_vec = 16;

/* A comma-separated list of integers from 1 to max into v (at most cap of them); -1 where it is
 * not one. */
static int
read_list(const char *s, int64_t *v, int cap, int64_t max, int *n)
{
	*n = 0;
	for (char *end; *s && *n < cap; s = end + (*end == ',')) {
		v[*n] = strtoll(s, &end, 10);
		if (end == s || v[*n] < 1 || v[*n] > max)
			return -1;
		++*n;
	}
	return *n ? 0 : -1;
}

/* The rows of every sweep point: enough for a grid of any size to fill the GPU. */
#define SWEEP_M 4096

/* Widths up to SHORT_N get the several-rows-a-CTA configs too: the tiny rows' (docs/regmodel.md,
 * "Short rows"). */
#define SHORT_N 256

/* Every kernel of testdata/kernels at bf16 and fp32, each width, 2 to 32 warps: persistent over the
 * row (one row a CTA; 4 and 16 rows a CTA for the narrowest width of the default grid, and 4, 16
 * and 64 for every width up to SHORT_N) up to 128 elements a thread, looped with chunks of 2, 8 and
 * 16 vectors a thread up to the 64 elements the policy streams. A kernel with sums over rows runs
 * only under a persistent grid: it gets one of a CTA an SM, and its configs the target cannot hold
 * (a looped row's partials past shared memory) are left out. The counts are the cost model's
 * (cost_model: with what a grid holds across row blocks), as the policy sees them. */
static int
read_sweep(const char *arch)
{
	Target t;
	Diag d = {0};
	if (target_load(arch, &t, &d)) {
		fprintf(stderr, "%s\n", d.msg);
		return -1;
	}
	int nnames;
	char **names = kernel_names_in(sweep_dir, &nnames);
	if (nnames == 0) {
		fprintf(stderr, "no kernels in %s\n", sweep_dir);
		kernel_names_free(names);
		return -1;
	}
	for (int ki = 0; ki < nnames; ki++)
		for (int dt = 0; dt < 2; dt++)
			for (int wi = 0; wi < nwidths; wi++)
				for (int wj = 0; wj < nwarps; wj++)
					for (int kind = 0; kind < 7; kind++) {
						int nw = (int)warps[wj];
						char path[512];
						snprintf(path, sizeof path, "%s/%s.rk", sweep_dir,
							 names[ki]);
						Kernel *k = kernel_named(path);
						Type dtype = dt ? TY_F32 : TY_BF16;
						int64_t N = widths[wi];
						Config g = {.num_warps = nw,
							    .m_block = 1,
							    .split = 1,
							    .min_ctas = 1};
						int vec = config_vec(k, dtype, N);
						for (g.vec = vec; g.vec > max_vec;)
							g.vec /= 2;
						if (kind >= 4 && ((N != widths[0] && N > SHORT_N) ||
								  nw < 4 || (nw & (nw - 1))))
							continue;
						if (kind == 6 && N > SHORT_N)
							continue;
						g.m_block = kind == 4	? 4
							    : kind == 5 ? 16
							    : kind == 6 ? 64
									: 1;
						int tpr = config_tpr(&g);
						int64_t step = (int64_t)tpr * g.vec;
						g.persistent = kind == 0 || kind >= 4;
						g.r_block = g.persistent
								? (N + step - 1) / step * step
								: step * vec / g.vec *
								      (kind == 1   ? 2
								       : kind == 2 ? 8
										   : 16);
						/* the policy holds up to 512 elements a thread
						 * and streams up to 64 (heuristics/rkc_rank.c) */
						if (g.r_block / tpr > 128 ||
						    (!g.persistent && g.r_block / tpr > 64) ||
						    (!g.persistent && g.r_block >= N))
							continue;
						if (k->plan->ncolsum > 0) {
							g.grid = t.sms;
							if (config_check_emit(k, dtype, SWEEP_M, N,
									      &g, NULL) ||
							    config_check_target(k, dtype, N, &g, &t,
										NULL))
								continue;
						}
						Facts f;
						facts_compute(k, dtype, &f);
						Point *p = add_point();
						snprintf(p->kernel, sizeof p->kernel, "%s",
							 names[ki]);
						snprintf(p->arch, sizeof p->arch, "%s", arch);
						p->c = (Compile){
						    .dtype = dtype, .M = SWEEP_M, .N = N, .cfg = g};
						Buf b = {0};
						config_short(&b, &g);
						snprintf(p->what, sizeof p->what, "%s %s N=%lld %s",
							 p->kernel, type_name(dtype), (long long)N,
							 b.s);
						buf_free(&b);
						Cost o;
						cost_model(&f, &g, SWEEP_M, N, &t, &o);
						p->predicted = o.regs;
						p->capped = o.capped;
						p->limit = o.reg_limit;
					}
	kernel_names_free(names);
	return 0;
}

/* The model's verdict on a point: it spills when even the capped count is over the limit. */
static int
model_spills(const Point *p)
{
	return p->capped > p->limit;
}

/* The model's register estimate where it predicts no spill: its count, or the limit that ptxas
 * squeezes a larger count into. */
static int
model_regs(const Point *p)
{
	return p->predicted < p->limit ? p->predicted : p->limit;
}

/* The sweep's figures: the spill verdict (the model's against ptxas spilling) and the register
 * estimate's mean absolute error, where ptxas did not spill. */
static void
sweep_report(void)
{
	int agree = 0, n = 0, nerr = 0;
	double err = 0;
	for (int i = 0; i < npts; i++) {
		Point *p = &pts[i];
		if (!p->regs)
			continue;
		printf("sweep: %-50s predicted %3d capped %3d limit %3d ptxas %3d%s%s\n", p->what,
		       p->predicted, p->capped, p->limit, p->regs, p->spilled ? " spills" : "",
		       model_spills(p) != p->spilled ? "  VERDICT DIFFERS" : "");
		n++;
		agree += model_spills(p) == p->spilled;
		if (!p->spilled) {
			err += fabs((double)model_regs(p) - p->regs) / p->regs;
			nerr++;
		}
	}
	/* per kernel and kind, so a model change can be aimed: bias > 0 means the model is high */
	for (int i = 0; i < npts; i++) {
		int first = 1;
		for (int j = 0; j < i; j++)
			if (!strcmp(pts[j].kernel, pts[i].kernel) &&
			    pts[j].c.cfg.persistent == pts[i].c.cfg.persistent)
				first = 0;
		if (!first)
			continue;
		int kn = 0, ka = 0, ke = 0;
		double kerr = 0, kbias = 0;
		for (int j = i; j < npts; j++) {
			Point *p = &pts[j];
			if (!p->regs || strcmp(p->kernel, pts[i].kernel) ||
			    p->c.cfg.persistent != pts[i].c.cfg.persistent)
				continue;
			kn++;
			ka += model_spills(p) == p->spilled;
			if (!p->spilled) {
				double e = ((double)model_regs(p) - p->regs) / p->regs;
				kerr += fabs(e);
				kbias += e;
				ke++;
			}
		}
		printf("sweep: %-24s %-10s %3d points, verdict %5.1f%%, error %5.1f%%, bias "
		       "%+6.1f%%\n",
		       pts[i].kernel, pts[i].c.cfg.persistent ? "persistent" : "looped", kn,
		       kn ? 100.0 * ka / kn : 0, ke ? 100 * kerr / ke : 0,
		       ke ? 100 * kbias / ke : 0);
	}
	printf("sweep: %d points; spill verdict agrees on %d (%.1f%%); register estimate mean "
	       "absolute error %.1f%% over the %d that do not spill\n",
	       n, agree, n ? 100.0 * agree / n : 0, nerr ? 100 * err / nerr : 0, nerr);
}

/* The CTA and cluster barriers in PTX text: bar.sync, barrier.sync and barrier.cluster. */
static int
barriers(const char *ptx)
{
	int n = 0;
	const char *pat[] = {"bar.sync", "barrier.sync", "barrier.cluster.arrive"};
	for (int i = 0; i < 3; i++)
		for (const char *p = ptx; (p = strstr(p, pat[i])); p++)
			n++;
	return n;
}

/* cap: ptxas's registers against the model's cap at the line's min_ctas, where the kernel wants
 * more than the cap (so ptxas takes all of it). */
static int
cap_report(void)
{
	int fails = 0, n = 0;
	for (int i = 0; i < npts; i++) {
		Point *p = &pts[i];
		Target t;
		Diag d = {0};
		if (!p->regs || target_load(p->arch, &t, &d))
			continue;
		int lim = target_reg_limit(&t, 32 * p->c.cfg.num_warps, p->c.cfg.min_ctas);
		printf("cap: %s %s: ptxas %d registers, the model's cap %d\n", p->arch, p->what,
		       p->regs, lim);
		if (p->regs != lim) {
			fprintf(stderr, "FAIL cap %s %s: ptxas took %d registers, the cap is %d\n",
				p->arch, p->what, p->regs, lim);
			fails++;
		}
		n++;
	}
	if (n < npts) {
		fprintf(stderr, "FAIL cap: %d of %d points assembled\n", n, npts);
		fails++;
	}
	return fails;
}

static double
now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

int
main(int argc, char **argv)
{
	if (argc < 3) {
		fputs("usage: ptx_suite forced|cap [--arch ARCH] LIST | regions LIST |\n"
		      "       ptx_suite golden FILE... | sweep [--widths N,...] [--warps W,...] "
		      "[--vec V] [--kernels DIR] ARCH...\n",
		      stderr);
		return 2;
	}
	const char *ptxas = ptxas_path();
	if (!ptxas) {
		fputs("FAIL: ptxas not found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)\n",
		      stderr);
		return 1;
	}
	int sweep = !strcmp(argv[1], "sweep"), cap_mode = !strcmp(argv[1], "cap");
	for (int i = 2; i < argc; i++) {
		if (sweep && (!strcmp(argv[i], "--widths") || !strcmp(argv[i], "--warps")) &&
		    i + 1 < argc) {
			int w = !strcmp(argv[i], "--warps");
			if (read_list(argv[++i], w ? warps : widths, w ? 32 : 16,
				      w ? 32 : INT64_MAX, w ? &nwarps : &nwidths)) {
				fprintf(stderr, "ptx_suite: bad %s %s\n",
					w ? "--warps" : "--widths", argv[i]);
				return 2;
			}
			continue;
		}
		if (sweep && !strcmp(argv[i], "--vec") && i + 1 < argc) {
			int n;
			if (read_list(argv[++i], &max_vec, 1, 16, &n) || strchr(argv[i], ',')) {
				fprintf(stderr, "ptx_suite: bad --vec %s\n", argv[i]);
				return 2;
			}
			continue;
		}
		if (sweep && !strcmp(argv[i], "--kernels") && i + 1 < argc) {
			sweep_dir = argv[++i];
			continue;
		}
		int forced = !strcmp(argv[1], "forced") || !strcmp(argv[1], "regions") || cap_mode;
		if (forced && !strcmp(argv[i], "--arch") && i + 1 < argc) {
			forced_arch = argv[++i];
			if (!codegen_arch_info(forced_arch)) {
				fprintf(stderr, "ptx_suite: unknown --arch %s\n", forced_arch);
				return 2;
			}
			continue;
		}
		if (sweep    ? read_sweep(argv[i])
		    : forced ? read_forced(argv[i])
			     : read_golden(argv[i]))
			return 1;
	}
	for (int i = 0; i < npts; i++)
		pts[i].c.regions = !strcmp(argv[1], "regions");
	const char *tmp = getenv("TMPDIR");
	char dir[256];
	if (snprintf(dir, sizeof dir, "%s/rkc-ptx-suite-XXXXXX", tmp && *tmp ? tmp : "/tmp") >=
	    (int)sizeof dir) {
		fputs("ptx_suite: TMPDIR is too long\n", stderr);
		return 1;
	}
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	int fails = 0;
	/* PTX, in two processes: each compiles every other point */
	double t0 = now();
	pid_t workers[2];
	for (int w = 0; w < 2; w++)
		if ((workers[w] = fork()) == 0) {
			for (int i = w; i < npts; i += 2) {
				Point *p = &pts[i];
				p->c.arch = p->arch;
				Buf ptx = {0};
				Diag d = {0};
				if (codegen_ptx(kernel_named(p->kernel), &p->c, &ptx, NULL, &d)) {
					fprintf(stderr, "FAIL compile %s %s: %s\n", p->arch,
						p->what, d.msg);
					continue;
				}
				char path[512];
				snprintf(path, sizeof path, "%s/%d.ptx", dir, i);
				FILE *f = fopen(path, "w");
				fputs(ptx.s, f);
				fclose(f);
				/* --regions: the barriers of the same compile without the stamps */
				Buf plain = {0};
				Compile c0 = p->c;
				c0.regions = 0;
				if (p->c.regions &&
				    !codegen_ptx(kernel_named(p->kernel), &c0, &plain, NULL, &d)) {
					snprintf(path, sizeof path, "%s/%d.bars", dir, i);
					f = fopen(path, "w");
					fprintf(f, "%d %d\n", barriers(ptx.s), barriers(plain.s));
					fclose(f);
				}
				buf_free(&plain);
				buf_free(&ptx);
			}
			_exit(0);
		}
	for (int w = 0; w < 2; w++)
		waitpid(workers[w], NULL, 0);
	double t1 = now();
	/* identical PTX (points that differ only in M or N) is assembled once */
	int *same = calloc(npts, sizeof *same);
	uint64_t *hash = calloc(npts, sizeof *hash);
	for (int i = 0; i < npts; i++) {
		char path[512];
		snprintf(path, sizeof path, "%s/%d.ptx", dir, i);
		Diag d = {0};
		char *text = read_file(path, NULL, &d);
		same[i] = i;
		if (!text) {
			fails++;
			pts[i].arch[0] = 0;
			continue;
		}
		uint64_t h = 1469598103934665603u;
		for (const char *c = text; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211u;
		hash[i] = h;
		for (int j = 0; j < i; j++)
			if (hash[j] == h && pts[j].arch[0]) {
				same[i] = j;
				break;
			}
		if (i == 0) {
			/* determinism: a compile here gives the bytes the worker wrote */
			Buf again = {0};
			pts[0].c.arch = pts[0].arch;
			if (codegen_ptx(kernel_named(pts[0].kernel), &pts[0].c, &again, NULL, &d) ||
			    strcmp(text, again.s)) {
				fprintf(stderr, "FAIL: two compiles of %s differ\n", pts[0].what);
				fails++;
			}
			buf_free(&again);
		}
		free(text);
	}
	/* --regions: no barrier of its own (sampled, the row block's code is there twice, stamped
	 * and plain, and the barriers outside it, the ticket's and the colsum's, once: between
	 * one and two times as many) */
	int nbars = 0, bars_max = 0;
	for (int i = 0; i < npts && pts[i].c.regions; i++) {
		char path[512];
		snprintf(path, sizeof path, "%s/%d.bars", dir, i);
		FILE *f = fopen(path, "r");
		int with = -1, without = -2, copies = regions_every(&pts[i].c) > 1 ? 2 : 1;
		int ok = f && fscanf(f, "%d %d", &with, &without) == 2 && with >= without &&
			 with <= copies * without;
		if (!ok) {
			fprintf(stderr,
				"FAIL %s %s: %d barriers with --regions, %d without, %d cop%s of "
				"the row block's code\n",
				pts[i].arch, pts[i].what, with, without, copies,
				copies > 1 ? "ies" : "y");
			fails++;
		}
		if (f)
			fclose(f);
		unlink(path);
		nbars += ok;
		bars_max = with > bars_max ? with : bars_max;
	}
	if (npts && pts[0].c.regions)
		printf(
		    "barriers: %d of %d points have as many with --regions as without, a copy of "
		    "the row code (at most %d a kernel)\n",
		    nbars, npts, bars_max);
	/* ptxas, two at a time */
	int running = 0, next = 0, spills = 0, maxregs = 0;
	pid_t *pid = calloc(npts, sizeof *pid);
	while (next < npts || running > 0) {
		if (next < npts && running < 2) {
			int i = next++;
			if (!pts[i].arch[0] || same[i] != i)
				continue;
			char in[512], log[512], arch[32];
			snprintf(in, sizeof in, "%s/%d.ptx", dir, i);
			snprintf(log, sizeof log, "%s/%d.log", dir, i);
			snprintf(arch, sizeof arch, "-arch=%s", pts[i].arch);
			if ((pid[i] = fork()) == 0) {
				FILE *o = freopen(log, "w", stderr);
				(void)o;
				execl(ptxas, "ptxas", "-v", arch, "-o", "/dev/null", in,
				      (char *)NULL);
				_exit(127);
			}
			running++;
			continue;
		}
		int st;
		pid_t w = wait(&st);
		if (w < 0)
			break;
		running--;
		for (int i = 0; i < npts; i++) {
			if (pid[i] != w)
				continue;
			pid[i] = 0; /* the system may hand this pid to a later ptxas */
			char log[512];
			snprintf(log, sizeof log, "%s/%d.log", dir, i);
			Diag d = {0};
			char *text = read_file(log, NULL, &d);
			PtxasFunc pf;
			if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !text ||
			    ptxas_parse(text, &pf, 1) != 1) {
				fprintf(stderr, "FAIL ptxas %s %s:\n%s\n", pts[i].arch, pts[i].what,
					text ? text : "");
				fails++;
			} else if (pf.stack > 0 && pf.spill_stores == 0) {
				/* local memory that is not a spill: an array indexed at run time */
				fprintf(stderr, "FAIL %s %s: %ld bytes of stack without spills\n",
					pts[i].arch, pts[i].what, pf.stack);
				fails++;
			} else {
				pts[i].regs = pf.regs;
				pts[i].spilled = pf.spill_stores > 0;
				if (getenv("PTX_SUITE_REGS"))
					printf(
					    "regs: %s %s: %d registers, %ld bytes spill stores\n",
					    pts[i].arch, pts[i].what, pf.regs, pf.spill_stores);
				if (pf.spill_stores > 0) {
					spills++;
					printf(
					    "spills: %s %s: %d registers, %ld bytes spill stores\n",
					    pts[i].arch, pts[i].what, pf.regs, pf.spill_stores);
				}
				if (pf.regs > maxregs)
					maxregs = pf.regs;
			}
			free(text);
			unlink(log);
			snprintf(log, sizeof log, "%s/%d.ptx", dir, i);
			unlink(log);
		}
	}
	/* the duplicates' PTX was never assembled; the directory goes with it */
	for (int i = 0; i < npts; i++)
		if (same[i] != i) {
			char path[512];
			snprintf(path, sizeof path, "%s/%d.ptx", dir, i);
			unlink(path);
		}
	if (rmdir(dir))
		fprintf(stderr, "ptx_suite: cannot remove %s\n", dir);
	for (int i = 0; i < npts; i++)
		if (same[i] != i) {
			pts[i].regs = pts[same[i]].regs;
			pts[i].spilled = pts[same[i]].spilled;
		}
	if (sweep)
		sweep_report();
	if (cap_mode)
		fails += cap_report();
	int unique = 0;
	for (int i = 0; i < npts; i++)
		unique += pts[i].arch[0] && same[i] == i;
	printf("%d points: PTX in %.2f s on 2 processes (%.1f ms a point), %d distinct kernels "
	       "assembled in %.2f s; %d with spills, max %d registers; %d failures\n",
	       npts, t1 - t0, 2000 * (t1 - t0) / (npts ? npts : 1), unique, now() - t1, spills,
	       maxregs, fails);
	free(same);
	free(hash);
	free(pid);
	free(pts);
	for (int i = 0; i < nkernels; i++)
		kernel_free(kernels[i]);
	return fails ? 1 : 0;
}
