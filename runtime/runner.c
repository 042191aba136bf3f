/* One kernel at one shape on the GPU: inputs, launch per the manifest, check, time, report. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

struct RunData {
	const Kernel *k;
	Type dtype;
	int64_t M, N;
	Tensor *ts;
	int64_t *rows, nrows;
	double **ref; /* per output; NULL until a check asks */
};

RunData *
run_data_new(const Kernel *k, Type dtype, int64_t M, int64_t N, const RunOpts *o, Diag *d)
{
	RunData *rd = calloc(1, sizeof *rd);
	Dist *ds = calloc((size_t)k->nparams, sizeof(Dist));
	*rd = (RunData){k, dtype, M, N, calloc((size_t)k->nparams, sizeof(Tensor)), NULL, 0, NULL};
	int rc = inputs_spec(ds, k, o->inputs_file, o->inputs_json, d) ||
		 inputs_make_rows(rd->ts, k, dtype, M, N, o->seed, o->first_row, ds, d);
	free(ds);
	if (rc) {
		run_data_free(rd);
		return NULL;
	}
	rd->nrows = sample_rows(k, M, N, &rd->rows);
	return rd;
}

void
run_data_free(RunData *rd)
{
	if (!rd)
		return;
	for (int p = 0; rd->ref && p < rd->k->nparams; p++)
		free(rd->ref[p]);
	free(rd->ref);
	tensors_free(rd->ts, rd->k->nparams);
	free(rd->ts);
	free(rd->rows);
	free(rd);
}

typedef struct {
	uint64_t dev[MAX_MPARAMS];
	size_t bytes[MAX_MPARAMS];   /* arrays: the device allocation (padded rows included) */
	int64_t stride[MAX_MPARAMS]; /* [M,N] arrays: elements between rows (N, or N + --pad) */
	float f32[MAX_MPARAMS];
	int64_t i64[MAX_MPARAMS];
	int32_t i32[MAX_MPARAMS];
	void *args[MAX_MPARAMS];
	char *stage; /* --pad: host rows laid out as on the device */
	size_t stage_bytes;
} Args;

static void
args_free(Gpu *g, Args *l)
{
	for (int i = 0; i < MAX_MPARAMS; i++)
		gpu_free(g, l->dev[i]);
	free(l->stage);
}

static int
manifest_index(const Manifest *m, const char *name)
{
	for (int i = 0; i < m->nparams; i++)
		if (!strcmp(m->params[i].name, name) &&
		    (m->params[i].kind == MP_IN || m->params[i].kind == MP_OUT))
			return i;
	return -1;
}

/* An array on the device: dense, or (--pad) [M,N] rows pad elements apart with the padding of
 * an input poisoned (0xff: NaN for floats), checked against the manifest's stride rule and each
 * pointer against its alignment. */
static int
array_setup(Args *l, int i, Gpu *g, const Manifest *m, const Tensor *t, int64_t pad, Diag *d)
{
	const MParam *mp = &m->params[i];
	size_t size = (size_t)type_size(t->type);
	int padded = mp->shape == SH_TILE && pad > 0;
	l->stride[i] = m->N + (padded ? pad : 0);
	l->bytes[i] = padded ? (size_t)(m->M * l->stride[i]) * size : (size_t)t->count * size;
	if ((mp->shape == SH_TILE && manifest_stride_check(m, mp->name, l->stride[i], d)) ||
	    gpu_alloc(g, &l->dev[i], l->bytes[i], d))
		return -1;
	if (l->dev[i] % (uint64_t)mp->align)
		return diag(d, "'%s' at 0x%llx is not aligned to %d bytes", mp->name,
			    (unsigned long long)l->dev[i], mp->align);
	l->args[i] = &l->dev[i];
	if (padded && l->bytes[i] > l->stage_bytes) {
		char *st = realloc(l->stage, l->bytes[i]);
		if (!st)
			return diag(d, "out of memory for %zu bytes of padded rows", l->bytes[i]);
		l->stage = st;
		l->stage_bytes = l->bytes[i];
	}
	if (mp->kind != MP_IN)
		return 0;
	if (!padded)
		return gpu_upload(g, l->dev[i], t->data, l->bytes[i], d);
	rows_pad(l->stage, t->data, m->M, m->N, l->stride[i], size, 0xff);
	return gpu_upload(g, l->dev[i], l->stage, l->bytes[i], d);
}

/* Device arrays and argument slots in manifest order: arrays and workspace as pointers, params
 * as f32, dims and row strides as integers. */
static int
args_setup(Args *l, Gpu *g, const Kernel *k, const Manifest *m, const Tensor *ts, int64_t pad,
	   Diag *d)
{
	memset(l, 0, sizeof *l);
	if (pad > 0 && !m->strides)
		return diag(d,
			    "--pad %lld: this manifest (version %d) has no row strides; compile "
			    "again",
			    (long long)pad, m->version);
	for (int i = 0; i < m->nparams; i++) {
		const MParam *mp = &m->params[i];
		int p = kernel_param(k, mp->name);
		switch (mp->kind) {
		case MP_IN:
		case MP_OUT:
			if (array_setup(l, i, g, m, &ts[p], pad, d))
				return -1;
			break;
		case MP_STRIDE: /* once every array is placed, below */
			break;
		case MP_WORKSPACE:
		case MP_REGIONS:
			if (gpu_alloc(g, &l->dev[i], (size_t)mp->bytes, d) ||
			    gpu_fill(g, l->dev[i], 0, (size_t)mp->bytes, d))
				return -1;
			l->args[i] = &l->dev[i];
			break;
		case MP_PARAM:
			l->f32[i] = (float)k->params[p].def;
			l->args[i] = &l->f32[i];
			break;
		case MP_DIM:
			l->i64[i] = mp->name[0] == 'M' ? m->M : m->N;
			l->i32[i] = (int32_t)l->i64[i];
			l->args[i] = mp->type == TY_I64 ? (void *)&l->i64[i] : (void *)&l->i32[i];
			break;
		}
	}
	for (int i = 0; i < m->nparams; i++) {
		int a = m->params[i].kind == MP_STRIDE ? manifest_index(m, m->params[i].of) : 0;
		if (a < 0)
			return diag(d, "manifest: stride '%s' of no array", m->params[i].name);
		if (m->params[i].kind == MP_STRIDE) {
			l->i64[i] = l->stride[a];
			l->args[i] = &l->i64[i];
		}
	}
	return 0;
}

/* One launch with every output poisoned (its padding too): the outputs into host, dense, and
 * per output the most padding elements a launch wrote into pad_written (rows_unpad). */
static int
run_once(Gpu *g, GpuFn *f, const Manifest *m, Args *l, const Kernel *k, const Tensor *ts,
	 unsigned char poison, char **host, int64_t *pad_written, Diag *d)
{
	for (int i = 0; i < m->nparams; i++)
		if (m->params[i].kind == MP_OUT && gpu_fill(g, l->dev[i], poison, l->bytes[i], d))
			return -1;
	if (gpu_launch(g, f, m, l->args, d))
		return -1;
	for (int i = 0; i < m->nparams; i++) {
		int p = m->params[i].kind == MP_OUT ? kernel_param(k, m->params[i].name) : -1;
		if (p < 0)
			continue;
		if (l->stride[i] == m->N || m->params[i].shape != SH_TILE) {
			if (gpu_download(g, host[p], l->dev[i], l->bytes[i], d))
				return -1;
			continue;
		}
		if (gpu_download(g, l->stage, l->dev[i], l->bytes[i], d))
			return -1;
		int64_t n = rows_unpad(host[p], l->stage, m->M, m->N, l->stride[i],
				       (size_t)type_size(ts[p].type), poison);
		pad_written[p] = n > pad_written[p] ? n : pad_written[p];
	}
	return 0;
}

/* FNV-1a, 64 bits: a row's output bits in a line, to compare a row across batches. */
static uint64_t
fnv1a(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static uint64_t
row_digest(const Param *pa, const Tensor *t, const char *data, int64_t row, int64_t N)
{
	size_t size = (size_t)type_size(t->type);
	size_t n = pa->shape == SH_TILE ? (size_t)N : pa->shape == SH_VEC ? (size_t)t->count : 1;
	size_t at = pa->shape == SH_VEC ? 0 : (size_t)row * n;
	return fnv1a((const unsigned char *)data + at * size, n * size);
}

static int
check_all(RunResult *r, Gpu *g, GpuFn *f, const Kernel *k, const Manifest *m, Args *l, RunData *rd,
	  const RunOpts *o, Diag *d)
{
	int np = k->nparams, rc = -1;
	const Tensor *ts = rd->ts;
	char **run1 = calloc((size_t)np, sizeof(char *)),
	     **run2 = calloc((size_t)np, sizeof(char *));
	int64_t *padw = NULL;
	int64_t *rows = rd->rows, nrows = rd->nrows;
	for (int p = 0; p < np; p++)
		if (k->params[p].kind == P_OUT) {
			size_t bytes = (size_t)ts[p].count * (size_t)type_size(ts[p].type);
			run1[p] = malloc(bytes ? bytes : 1);
			run2[p] = malloc(bytes ? bytes : 1);
			if (!run1[p] || !run2[p]) {
				diag(d, "out of memory for output '%s'", k->params[p].name);
				goto out;
			}
		}
	if (!rd->ref) {
		rd->ref = calloc((size_t)np, sizeof(double *));
		if (reference_rows(rd->ref, k, ts, m->M, m->N, rows, nrows, d)) {
			for (int p = 0; p < np; p++)
				free(rd->ref[p]);
			free(rd->ref);
			rd->ref = NULL;
			goto out;
		}
	}
	double **ref = rd->ref;
	if (!(padw = calloc((size_t)np, sizeof *padw))) {
		diag(d, "out of memory");
		goto out;
	}
	if (run_once(g, f, m, l, k, ts, 0xff, run1, padw, d) ||
	    run_once(g, f, m, l, k, ts, 0x00, run2, padw, d))
		goto out;
	r->pass = 1;
	for (int p = 0, oi = 0; p < np; p++) {
		const Param *pa = &k->params[p];
		if (pa->kind != P_OUT)
			continue;
		if (r->nchecks == MAX_CHECKS) {
			diag(d, "%s: more than %d outputs", k->name, MAX_CHECKS);
			goto out;
		}
		double tol = 0;
		if (type_is_float(ts[p].type) &&
		    tolerance(&tol, k->name, oi, check_dtype(k, m->dtype), o->tol_file, o->tol_json,
			      d))
			goto out;
		Check *c = &r->checks[r->nchecks++];
		/* A row-invariant output is one row: compare all of it. */
		int vec = pa->shape == SH_VEC;
		int64_t zero = 0;
		c->name = pa->name;
		c->rows = vec ? 1 : nrows;
		c->total_rows = vec ? 1 : m->M;
		check_output(c, ts[p].type, run1[p], run2[p], ts[p].count,
			     pa->shape == SH_ROW ? 1 : m->N, vec ? &zero : rows, c->rows, ref[p],
			     tol);
		c->pad_written = padw[p];
		c->pass &= c->pad_written == 0;
		r->pass &= c->pass;
		if (o->digest_row >= 0) {
			r->digest[r->nchecks - 1] =
			    row_digest(pa, &ts[p], run1[p], o->digest_row, m->N);
			r->digest_batch[r->nchecks - 1] = vec;
		}
		oi++;
	}
	rc = 0;
out:
	for (int p = 0; p < np; p++) {
		free(run1[p]);
		free(run2[p]);
	}
	free(run1);
	free(run2);
	free(padw);
	return rc;
}

/* rkc run --regions: the stamps of one launch after a warm one, the L2 flushed before it. */
static int
regions_launch(RunResult *r, Gpu *g, GpuFn *f, const Manifest *m, Args *l, Diag *d)
{
	int i = 0;
	while (i < m->nparams && m->params[i].kind != MP_REGIONS)
		i++;
	if (i == m->nparams || m->regions.n == 0)
		return diag(d, "--regions: the manifest has no regions (compile with --regions)");
	int64_t nctas = (int64_t)m->grid[0] * m->grid[1] * m->grid[2];
	size_t bytes = (size_t)m->params[i].bytes;
	if (bytes != (size_t)m->regions.slots * (size_t)m->regions.words * 8)
		return diag(d,
			    "manifest: the regions buffer is %zu bytes, not %lld slots of %d "
			    "words",
			    bytes, (long long)m->regions.slots, m->regions.words);
	uint64_t *st = malloc(bytes);
	double us = 0;
	int per_sm = 0, sms = 0;
	int rc =
	    !st || gpu_launch(g, f, m, l->args, d) || gpu_fill(g, l->dev[i], 0, bytes, d) ||
	    gpu_time_once(g, f, m, l->args, &us, d) || gpu_download(g, st, l->dev[i], bytes, d) ||
	    regions_reduce(&r->regions, &m->regions, st, nctas, d) ||
	    gpu_occupancy(g, f, m, &per_sm, &sms, d) || gpu_floor(g, m, &r->regions.floor_us, d);
	if (!st)
		diag(d, "out of memory for %zu bytes of region stamps", bytes);
	free(st);
	r->regions.per_sm = per_sm;
	r->regions.sms = sms;
	r->regions.grid = nctas;
	r->regions.kernel_us = us;
	r->has_regions = !rc;
	return rc ? -1 : 0;
}

/* With --time --regions: the kernel without the stamps (pf, loaded from RunOpts.plain_ptx),
 * timed on the same buffers before (i = 0) and after (1) the stamped one, so that the overhead
 * compares two kernels reading the same addresses (a plain kernel's time moved by up to 5%
 * between processes: docs/regions.md). Its parameters are the stamped kernel's less the last
 * (the stamps' buffer), so the same argument array serves both. */
static int
plain_time(RunResult *r, Gpu *g, GpuFn *pf, const RunOpts *o, Args *l, int i, Diag *d)
{
	int reps = 0;
	return pf && gpu_time(g, pf, o->plain_m, l->args, &r->plain_us[i], &reps, d) ? -1 : 0;
}

double
run_stamps_cost(double us, const double plain_us[2])
{
	double p = (plain_us[0] + plain_us[1]) / 2;
	return p > 0 ? us / p - 1 : 0;
}

int
run_point(RunResult *r, Gpu *g, const Kernel *k, const Manifest *m, const char *ptx,
	  const RunOpts *o, Diag *d)
{
	memset(r, 0, sizeof *r);
	r->pad = o->pad;
	r->digest_row = o->check && o->digest_row >= 0 ? o->first_row + o->digest_row : -1;
	if (manifest_match(m, k, d))
		return -1;
	if (o->digest_row >= m->M)
		return diag(d, "--digest-row %lld is not a row of %lld", (long long)o->digest_row,
			    (long long)m->M);
	RunData *rd = o->data;
	if (rd && (rd->k != k || rd->dtype != m->dtype || rd->M != m->M || rd->N != m->N))
		return diag(d, "internal error: shared run data of another point");
	for (int p = 0; p < k->nparams; p++)
		if (k->params[p].kind != P_PARAM)
			r->bytes += shape_count(k->params[p].shape, m->M, m->N) *
				    type_size(type_resolve(k->params[p].type, m->dtype));
	GpuFn *f = NULL, *pf = NULL;
	Args l = {0};
	int rc = -1, shared = 0;
	if (!(f = gpu_load(g, ptx, m->entry, d)))
		goto out;
	gpu_fn_info(f, &r->regs, &r->local_bytes, &shared);
	if ((!rd && !(rd = run_data_new(k, m->dtype, m->M, m->N, o, d))) ||
	    args_setup(&l, g, k, m, rd->ts, o->pad, d))
		goto out;
	if (o->check && check_all(r, g, f, k, m, &l, rd, o, d))
		goto out;
	if (o->time) {
		r->copy_gbps = o->copy_gbps;
		if ((r->copy_gbps <= 0 && gpu_copy_gbps(g, &r->copy_gbps, d)) ||
		    (o->plain_ptx && !(pf = gpu_load(g, o->plain_ptx, o->plain_m->entry, d))) ||
		    plain_time(r, g, pf, o, &l, 0, d) ||
		    gpu_time(g, f, m, l.args, &r->us, &r->reps, d) ||
		    plain_time(r, g, pf, o, &l, 1, d))
			goto out;
		r->gbps = (double)r->bytes / (r->us * 1e-6) / 1e9;
	}
	if (o->regions && regions_launch(r, g, f, m, &l, d))
		goto out;
	rc = 0;
out:
	args_free(g, &l);
	gpu_unload(g, pf);
	gpu_unload(g, f);
	if (rd != o->data)
		run_data_free(rd);
	return rc;
}

/* "every block" or "1 block in E" (two copies of the row code: docs/regions.md). */
static void
stamping_name(char *s, size_t n, int every)
{
	if (every == 1)
		snprintf(s, n, "every block");
	else
		snprintf(s, n, "1 block in %d", every);
}

void
run_report(Buf *b, const Kernel *k, const Manifest *m, const RunResult *r)
{
	const char *dt = type_name(m->dtype);
	buf_printf(b, "%s %s %lldx%lld: %s %s\n", k->name, dt, (long long)m->M, (long long)m->N,
		   m->policy[0] ? m->policy : "config", m->config);
	if (r->pad)
		buf_printf(b,
			   "  [M,N] rows %lld elements apart (--pad %lld), the padding poisoned\n",
			   (long long)(m->N + r->pad), (long long)r->pad);
	double worst = 0;
	for (int i = 0; i < r->nchecks; i++) {
		const Check *c = &r->checks[i];
		buf_printf(b, "  %-10s %s %.3e (tol %.1e)  rows %lld/%lld", c->name,
			   c->is_int ? "max_diff" : "rel_l2", c->err, c->tol, (long long)c->rows,
			   (long long)c->total_rows);
		if (c->nonfinite)
			buf_printf(b, "  %lld non-finite", (long long)c->nonfinite);
		if (c->as_ref)
			buf_printf(b, " (%lld as the reference rounded to %s)",
				   (long long)c->as_ref, type_name(c->type));
		if (c->unwritten)
			buf_printf(b, "  %lld of %lld unwritten", (long long)c->unwritten,
				   (long long)c->count);
		if (c->pad_written)
			buf_printf(b, "  %lld padding element(s) written",
				   (long long)c->pad_written);
		buf_printf(b, "  %s\n", c->pass ? "ok" : "FAIL");
		if (!c->is_int && (c->err > worst || isnan(c->err)))
			worst = c->err;
	}
	double pct = r->copy_gbps > 0 ? 100 * r->gbps / r->copy_gbps : 0;
	char pad[40] = "";
	if (r->pad)
		snprintf(pad, sizeof pad, "pad=%lld ", (long long)r->pad);
	if (r->us > 0)
		buf_printf(b,
			   "  time %.2f us  %.1f GB/s  %.1f%% of copy (%.0f GB/s)  median of %d  "
			   "regs %d  local %d B\n",
			   r->us, r->gbps, pct, r->copy_gbps, r->reps, r->regs, r->local_bytes);
	if (r->plain_us[0] > 0)
		buf_printf(b,
			   "  without the stamps, the same buffers: %.2f us before and %.2f after: "
			   "the stamps %+.1f%%\n",
			   r->plain_us[0], r->plain_us[1],
			   100 * run_stamps_cost(r->us, r->plain_us));
	if (r->other_every) {
		char kept[32], other[32];
		stamping_name(kept, sizeof kept, m->regions.every);
		stamping_name(other, sizeof other, r->other_every);
		buf_printf(b,
			   "  %s stamped instead: %.2f us, %.2f and %.2f without: the stamps "
			   "%+.1f%%, so the table is of %s\n",
			   other, r->other_us, r->other_plain_us[0], r->other_plain_us[1],
			   100 * run_stamps_cost(r->other_us, r->other_plain_us), kept);
	}
	if (r->has_regions)
		regions_report(b, &r->regions);
	buf_printf(b,
		   "RESULT kernel=%s dtype=%s M=%lld N=%lld status=%s worst_rel_l2=%.3e us=%.2f "
		   "gbps=%.1f copy_pct=%.1f mbytes=%.1f regs=%d local=%d %sconfig=%s\n",
		   k->name, dt, (long long)m->M, (long long)m->N,
		   r->nchecks == 0 ? "unchecked"
		   : r->pass	   ? "ok"
				   : "FAIL",
		   worst, r->us, r->gbps, pct, (double)r->bytes / 1e6, r->regs, r->local_bytes, pad,
		   m->config);
	if (r->has_regions) {
		const RegionTable *t = &r->regions;
		buf_printf(
		    b,
		    "REGIONS kernel=%s dtype=%s M=%lld N=%lld kernel_us=%.2f span_us=%.2f "
		    "sum_med_us=%.3f block_med_us=%.3f blocks_per_cta=%.2f cta_us=%.3f "
		    "dominant=%s share=%.1f tick_ns=%.0f ctas=%lld blocks=%lld every=%d "
		    "sum_level_us=%.3f resident=%.1f per_sm=%d sms=%d grid=%lld floor_us=%.2f",
		    k->name, dt, (long long)m->M, (long long)m->N, t->kernel_us, t->span_us,
		    t->sum_med_us, t->block_med_us, t->blocks_per_cta, t->cta_us,
		    t->r[t->dominant].name, 100 * t->r[t->dominant].share, t->tick_ns,
		    (long long)t->ctas, (long long)t->blocks, t->every, t->sum_level_us,
		    t->resident, t->per_sm, t->sms, (long long)t->grid, t->floor_us);
		if (t->lives_ctas > 0)
			buf_printf(b, " lives_sum_med_us=%.3f life_med_us=%.3f life_max_us=%.3f",
				   t->lives_sum_med_us, t->life_med_us, t->life_max_us);
		if (r->plain_us[0] > 0)
			buf_printf(b, " plain_us=%.2f plain_after_us=%.2f", r->plain_us[0],
				   r->plain_us[1]);
		if (r->other_every)
			buf_printf(b,
				   " other_every=%d other_us=%.2f other_plain_us=%.2f "
				   "other_plain_after_us=%.2f",
				   r->other_every, r->other_us, r->other_plain_us[0],
				   r->other_plain_us[1]);
		buf_puts(b, "\n");
	}
	for (int i = 0; r->digest_row >= 0 && i < r->nchecks; i++)
		buf_printf(b,
			   "DIGEST kernel=%s dtype=%s M=%lld N=%lld row=%lld span=%s output=%s "
			   "hash=%016llx\n",
			   k->name, dt, (long long)m->M, (long long)m->N, (long long)r->digest_row,
			   r->digest_batch[i] ? "batch" : "row", r->checks[i].name,
			   (unsigned long long)r->digest[i]);
}
