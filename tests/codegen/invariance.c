/* Batch invariance, run: a row's outputs must be bitwise the same whatever the batch around it.
 * For every kernel of testdata/kernels at bf16 and fp32, target rows (random, from a fixed
 * seed) are placed at random positions in batches of M = 1, 3, 16 (N = 1001), 1, 3 (N = 4096),
 * 1, 3, 64, 4096 (N = 40; 4096 at fp32 only, so that the emulator stays fast) and 1, 3 (N = 32768,
 * where the order chosen from N cuts some kernels' rows over clusters and splits); the other
 * rows are random. A kernel with sums over rows whose grid is more threads than the emulator runs
 * at once (EMU_POOL_THREADS; its CTAs all wait at the combine) runs the same config over fewer
 * CTAs: a persistent grid's rows do not depend on how many CTAs walk them. Each batch is compiled
 * for its own M through the driver (rkc_compile, in the batch-invariant mode) and run by the
 * emulator, and each target row's outputs must match across the batches, bit for bit. Then the same
 * with the default rkc policy, where at least one kernel must differ, or the test could not tell.
 *   invariance [KERNEL...]      default: every kernel in testdata/kernels */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "driver/rkc.h"
#include "frontends/frontends.h"
#include "runtime/runtime.h"

/* The emulator starts a CPU thread per GPU thread, some 0.2 ms each under the sanitizers, so the
 * batches are few and their threads counted: 2 targets, M = 4096 at fp32 only, and without the
 * mode only the cheap batches (below). */
enum { TARGETS = 2 };

/* The shapes: each N with the batch sizes its target rows are placed in. */
static const struct {
	int64_t N;
	int64_t Ms[4];
	int nM;
} groups[] = {
    {1001, {1, 3, 16}, 3},
    {4096, {1, 3}, 2},
    {40, {1, 3, 64, 4096}, 4},
    {32768, {1, 3}, 2},
};

static const Type dtypes[] = {TY_BF16, TY_F32};

static char *inputs_json;

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* The elements a row (or the one element a [M] array has a row) occupies. */
static int64_t
per_row(Shape s, int64_t N)
{
	return s == SH_TILE ? N : s == SH_ROW ? 1 : 0;
}

/* One batch of M rows: random rows, with target t at row pos[t] (pos[t] < 0: not in it). Its
 * outputs for each target row go to out[t] (every per-row output's bytes in hex, in param order).
 * 0, or -1 with d set. */
static int
batch(const Kernel *k, Type dtype, int64_t M, int64_t N, int invariant, const Tensor *tgt,
      const Dist *dists, const int64_t *pos, Buf *out, Diag *d)
{
	int np = k->nparams, rc = -1;
	Tensor *ts = calloc((size_t)np, sizeof *ts);
	void **args = calloc((size_t)np * 2 + 3, sizeof *args);
	void **ptrs = calloc((size_t)np, sizeof *ptrs);
	float *f = calloc((size_t)np, sizeof *f);
	void *ws = NULL;
	Request rq = {.k = k,
		      .M = M,
		      .N = N,
		      .dtype = dtype,
		      .arch = "sm_90",
		      .policy = POLICY_RKC,
		      .batch_invariant = invariant,
		      .emit = 1};
	Result r;
	int compiled = 0;
	if (inputs_make(ts, k, dtype, M, N, 1000 + (uint64_t)M, dists, d))
		goto out;
	if (rkc_compile(&rq, &r, d)) {
		rkc_result_free(&r);
		goto out;
	}
	compiled = 1;
	if (invariant && !strstr(r.manifest.s, "\"batch_invariant\": true")) {
		diag(d, "the manifest does not say batch_invariant");
		goto out;
	}
	Launch l;
	codegen_launch(k, &r.compile, &l);
	/* sums over rows: the emulator runs the whole grid at once (every CTA waits at the
	 * combine), so past what it holds the same config over fewer CTAs, which moves no row */
	char grid[32];
	if (k->plan->ncolsum && l.grid_x * l.block_x > EMU_POOL_THREADS) {
		/* a grid of bands: whole bands, or the grid given would walk whole rows */
		int band =
		    r.compile.cfg.grid > 0 && r.compile.cfg.cluster > 1 ? r.compile.cfg.cluster : 1;
		snprintf(grid, sizeof grid, "grid=%d", EMU_POOL_THREADS / l.block_x / band * band);
		rq.forced = grid;
		rkc_result_free(&r);
		compiled = 0;
		if (rkc_compile(&rq, &r, d)) {
			rkc_result_free(&r);
			goto out;
		}
		compiled = 1;
		codegen_launch(k, &r.compile, &l);
	}
	ws = calloc(1, (size_t)l.workspace_bytes + 16);
	for (int p = 0; p < np; p++) {
		const Param *pa = &k->params[p];
		if (pa->kind == P_PARAM) {
			f[p] = (float)pa->def;
			args[p] = &f[p];
			continue;
		}
		size_t es = (size_t)type_size(ts[p].type);
		if (pa->kind == P_OUT) {
			size_t n = (size_t)ts[p].count * es;
			ts[p].data = malloc(n ? n : 1);
			memset(ts[p].data, 0xff, n);
		} else if (pa->shape == SH_VEC) {
			/* [N] inputs are the targets', the same in every batch */
			memcpy(ts[p].data, tgt[p].data, (size_t)N * es);
		} else {
			int64_t w = per_row(pa->shape, N);
			for (int t = 0; t < TARGETS; t++)
				if (pos[t] >= 0)
					memcpy((char *)ts[p].data + (size_t)(pos[t] * w) * es,
					       (char *)tgt[p].data + (size_t)(t * w) * es,
					       (size_t)w * es);
		}
		ptrs[p] = ts[p].data;
		args[p] = &ptrs[p];
	}
	args[np] = &M;
	args[np + 1] = &N;
	int na = np + 2 + codegen_strides(k, NULL);
	for (int i = np + 2; i < na; i++) /* dense rows: every stride is N */
		args[i] = &N;
	args[na] = &ws;
	if (codegen_emulate(k, &r.compile, args, d))
		goto out;
	for (int t = 0; t < TARGETS; t++) {
		if (pos[t] < 0)
			continue;
		out[t].len = 0;
		for (int p = 0; p < np; p++) {
			const Param *pa = &k->params[p];
			int64_t w = per_row(pa->shape, N);
			if (pa->kind != P_OUT || !w)
				continue;
			size_t es = (size_t)type_size(ts[p].type);
			const unsigned char *row =
			    (const unsigned char *)ts[p].data + (size_t)(pos[t] * w) * es;
			for (size_t i = 0; i < (size_t)w * es; i++)
				buf_printf(&out[t], "%02x", row[i]);
		}
	}
	rc = 0;
out:
	if (compiled)
		rkc_result_free(&r);
	tensors_free(ts, np);
	free(ts);
	free(args);
	free(ptrs);
	free(f);
	free(ws);
	return rc;
}

/* Every target row of one kernel, dtype and group, in each batch: 1 when a row's outputs differ
 * between batches, 0 when none does, -1 on an error (printed). */
static int
compare(const Kernel *k, Type dtype, int g, int invariant, const Dist *dists)
{
	int64_t N = groups[g].N;
	Tensor *tgt = calloc((size_t)k->nparams, sizeof *tgt);
	Buf first[TARGETS] = {{0}}, now[TARGETS] = {{0}};
	int have[TARGETS] = {0}, differs = 0;
	Diag d = {0};
	if (inputs_make(tgt, k, dtype, TARGETS, N, 77, dists, &d)) {
		differs = -1;
		goto out;
	}
	for (int mi = 0; mi < groups[g].nM && !differs; mi++) {
		int64_t M = groups[g].Ms[mi];
		if (M == 4096 && dtype != TY_F32)
			continue;
		/* without the mode, only batches of up to 16 rows of up to 1001: where the default
		 * policy spreads a row over 1024 threads or runs 4096 rows, the emulator is slow,
		 * and these already tell */
		if (!invariant && (M > 16 || N > 1001))
			continue;
		/* M = 1: a batch per target; else every target at a random row of its own */
		int runs = M < TARGETS ? TARGETS : 1;
		for (int run = 0; run < runs && !differs; run++) {
			int64_t pos[TARGETS];
			for (int t = 0; t < TARGETS; t++) {
				if (M < TARGETS) {
					pos[t] = t == run ? 0 : -1;
					continue;
				}
				int clash;
				do {
					pos[t] = (int64_t)(next() % (uint64_t)M);
					clash = 0;
					for (int u = 0; u < t; u++)
						clash |= pos[u] == pos[t];
				} while (clash);
			}
			if (batch(k, dtype, M, N, invariant, tgt, dists, pos, now, &d)) {
				printf("ERROR %s %s %lldx%lld: %s\n", k->name,
				       dtype == TY_BF16 ? "bf16" : "fp32", (long long)M,
				       (long long)N, d.msg);
				differs = -1;
				goto out;
			}
			for (int t = 0; t < TARGETS; t++) {
				if (pos[t] < 0)
					continue;
				if (!have[t]) {
					buf_free(&first[t]);
					first[t] = now[t];
					now[t] = (Buf){0};
					have[t] = 1;
				} else if (first[t].len != now[t].len ||
					   memcmp(first[t].s, now[t].s, now[t].len)) {
					if (invariant)
						printf(
						    "FAIL %s %s N=%lld: target row %d differs at "
						    "M=%lld (row %lld)\n",
						    k->name, dtype == TY_BF16 ? "bf16" : "fp32",
						    (long long)N, t, (long long)M,
						    (long long)pos[t]);
					differs = 1;
				}
			}
		}
	}
out:
	for (int t = 0; t < TARGETS; t++) {
		buf_free(&first[t]);
		buf_free(&now[t]);
	}
	tensors_free(tgt, k->nparams);
	free(tgt);
	return differs;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
main(int argc, char **argv)
{
	Diag d = {0};
	inputs_json = read_file("testdata/inputs.json", NULL, &d);
	if (!inputs_json) {
		fprintf(stderr, "%s\n", d.msg);
		return 1;
	}
	char *names[64];
	int nk = 0;
	if (argc > 1) {
		for (int i = 1; i < argc && nk < 64; i++)
			names[nk++] = strdup(argv[i]);
	} else {
		DIR *dir = opendir("testdata/kernels");
		struct dirent *e;
		while (dir && (e = readdir(dir)) && nk < 64) {
			size_t n = strlen(e->d_name);
			if (n > 3 && !strcmp(e->d_name + n - 3, ".rk"))
				names[nk++] = strndup(e->d_name, n - 3);
		}
		if (dir)
			closedir(dir);
		qsort(names, (size_t)nk, sizeof *names, by_name);
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int fails = 0, errors = 0, points = 0;
	Buf variant = {0};
	for (int i = 0; i < nk; i++) {
		char path[256];
		snprintf(path, sizeof path, "testdata/kernels/%s.rk", names[i]);
		char *src = read_file(path, NULL, &d);
		Kernel *k = src ? parse_kernel(path, src, &d) : NULL;
		free(src);
		Dist *dists = k ? calloc((size_t)k->nparams, sizeof *dists) : NULL;
		if (!k || inputs_spec(dists, k, "testdata/inputs.json", inputs_json, &d)) {
			fprintf(stderr, "%s: %s\n", path, d.msg);
			return 1;
		}
		for (size_t di = 0; di < sizeof dtypes / sizeof dtypes[0]; di++)
			for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
				points++;
				int inv = compare(k, dtypes[di], (int)g, 1, dists);
				int dflt = inv < 0 ? 0 : compare(k, dtypes[di], (int)g, 0, dists);
				errors += inv < 0 || dflt < 0;
				fails += inv > 0;
				if (dflt > 0)
					buf_printf(&variant, " %s/%s/N=%lld", k->name,
						   dtypes[di] == TY_BF16 ? "bf16" : "fp32",
						   (long long)groups[g].N);
			}
		free(dists);
		kernel_free(k);
		free(names[i]);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("without the mode, rows differ across batches in:%s\n",
	       variant.len ? variant.s : " none");
	printf("%d kernel/dtype/N points in %.1f s: %d not invariant in the mode, %d errors\n",
	       points, secs, fails, errors);
	int blind = argc == 1 && !variant.len;
	if (blind)
		printf("FAIL: no kernel differs without the mode, so the test cannot tell\n");
	free(inputs_json);
	buf_free(&variant);
	return fails || errors || blind ? 1 : 0;
}
