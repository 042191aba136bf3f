/* Unit tests of the runtime's host side: rounding, inputs, sampling, checks, manifests, no GPU. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/frontends.h"
#include "codegen/codegen.h"
#include "runtime/runtime.h"
#include "tests/testutil.h"

static float
bits_f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static void
test_bf16_rounding(void **state)
{
	assert_int_equal(bf16_from_f32(1.0f), 0x3f80);
	/* 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties go to the even mantissa */
	assert_int_equal(bf16_from_f32(1.0f + 0x1p-8f), 0x3f80);
	assert_int_equal(bf16_from_f32(1.0f + 3 * 0x1p-8f), 0x3f82);
	assert_int_equal(bf16_from_f32(1.0f + 0x1p-8f + 0x1p-20f), 0x3f81);
	assert_int_equal(bf16_from_f32(-2.0f), 0xc000);
	assert_int_equal(bf16_from_f32(INFINITY), 0x7f80);
	/* the largest float rounds up past the largest bf16 */
	assert_int_equal(bf16_from_f32(bits_f32(0x7f7fffff)), 0x7f80);
	assert_true(isnan(bf16_to_f32(bf16_from_f32(NAN))));
	/* a NaN whose payload sits only in the low bits must not become infinity */
	assert_true(isnan(bf16_to_f32(bf16_from_f32(bits_f32(0x7f800001)))));
	for (uint32_t h = 0; h < 0x10000; h++) {
		float f = bf16_to_f32((uint16_t)h);
		if (!isnan(f))
			assert_int_equal(bf16_from_f32(f), h);
	}
}

static void
test_f16_rounding(void **state)
{
	assert_int_equal(f16_from_f32(1.0f), 0x3c00);
	assert_int_equal(f16_from_f32(65504.0f), 0x7bff);
	assert_int_equal(f16_from_f32(65519.0f), 0x7bff);
	assert_int_equal(f16_from_f32(65520.0f), 0x7c00);
	assert_int_equal(f16_from_f32(0x1p-14f), 0x0400);
	assert_int_equal(f16_from_f32(0x1p-24f), 0x0001);
	assert_int_equal(f16_from_f32(0x1p-25f), 0x0000);     /* tie, to even */
	assert_int_equal(f16_from_f32(3 * 0x1p-25f), 0x0002); /* tie, to even */
	assert_int_equal(f16_from_f32(1.0f + 0x1p-11f), 0x3c00);
	assert_int_equal(f16_from_f32(1.0f + 3 * 0x1p-11f), 0x3c02);
	assert_int_equal(f16_from_f32(-0.0f), 0x8000);
	assert_true(isnan(f16_to_f32(f16_from_f32(NAN))));
	for (uint32_t h = 0; h < 0x10000; h++) {
		float f = f16_to_f32((uint16_t)h);
		if (!isnan(f))
			assert_int_equal(f16_from_f32(f), h);
	}
}

static void
test_elem_saturates(void **state)
{
	int8_t q[3];
	elem_set(TY_I8, q, 0, 300);
	elem_set(TY_I8, q, 1, -300);
	elem_set(TY_I8, q, 2, 2.5); /* to nearest even */
	assert_int_equal(q[0], 127);
	assert_int_equal(q[1], -128);
	assert_int_equal(q[2], 2);
	uint16_t h;
	elem_set(TY_BF16, &h, 0, 3.0);
	assert_true(elem_get(TY_BF16, &h, 0) == 3.0);
}

typedef struct {
	Kernel *k;
	char *spec;
	Dist ds[16];
} Spec;

static Spec *
dists_spec(void)
{
	Spec *s = calloc(1, sizeof *s);
	Diag d = {0};
	s->k = load_kernel_file("tests/runtime/data/dists.rk");
	s->spec = slurp_file("tests/runtime/data/dists.json");
	if (inputs_spec(s->ds, s->k, "dists.json", s->spec, &d))
		fail_msg("%s", d.msg);
	return s;
}

static void
spec_free(Spec *s)
{
	kernel_free(s->k);
	free(s->spec);
	free(s);
}

static double
at(const Tensor *t, int64_t i)
{
	return elem_get(t->type, t->data, i);
}

static void
check_distributions(Type dtype, double sum_tol)
{
	Spec *s = dists_spec();
	const Kernel *k = s->k;
	int64_t M = 64, N = 1000;
	Tensor ts[16];
	Diag d = {0};
	assert_int_equal(inputs_make(ts, k, dtype, M, N, 7, s->ds, &d), 0);
	const Tensor *p = &ts[kernel_param(k, "p")], *lp = &ts[kernel_param(k, "lp")];
	const Tensor *mask = &ts[kernel_param(k, "mask")], *x = &ts[kernel_param(k, "x")];
	const Tensor *t = &ts[kernel_param(k, "t")], *sel = &ts[kernel_param(k, "sel")];
	const Tensor *w = &ts[kernel_param(k, "w")];
	assert_int_equal(p->type, dtype);
	assert_int_equal(t->type, TY_I64);
	assert_int_equal(w->count, N);
	assert_null(ts[kernel_param(k, "y")].data);
	int64_t masked = 0;
	for (int64_t r = 0; r < M; r++) {
		double ps = 0, es = 0;
		int64_t row_masked = 0;
		for (int64_t c = 0; c < N; c++) {
			double v = at(p, r * N + c), m = at(mask, r * N + c);
			assert_true(v >= 0);
			ps += v;
			es += exp(at(lp, r * N + c));
			assert_true(m == 0 || fabs(m + 10000) <= 10000 * 0x1p-8);
			row_masked += m != 0;
		}
		masked += row_masked;
		assert_true(row_masked < N);
		assert_true(fabs(ps - 1) < sum_tol);
		assert_true(fabs(es - 1) < sum_tol);
		int64_t l = (int64_t)at(t, r);
		assert_true(l >= 0 && l < N);
		/* with no noise, the selected log-prob is exactly the labelled log-softmax */
		double mx = -INFINITY, se = 0;
		for (int64_t c = 0; c < N; c++)
			mx = fmax(mx, at(x, r * N + c) / 0.9);
		for (int64_t c = 0; c < N; c++)
			se += exp(at(x, r * N + c) / 0.9 - mx);
		assert_float_equal(at(sel, r), at(x, r * N + l) / 0.9 - mx - log(se), 1e-5);
	}
	double frac = (double)masked / (double)(M * N);
	assert_true(frac > 0.28 && frac < 0.32);
	for (int64_t c = 0; c < N; c++)
		assert_true(at(w, c) >= 2 && at(w, c) <= 3);
	tensors_free(ts, k->nparams);
	spec_free(s);
}

static void
test_distributions_bf16(void **state)
{
	check_distributions(TY_BF16, 2e-2);
}

static void
test_distributions_f32(void **state)
{
	check_distributions(TY_F32, 1e-5);
}

/* Labels with frac > 0: the ignore value at row 1 and at about frac of the rows, a label in
 * [0, N) elsewhere; cross_entropy_backward's spec has them, and its reference is 0 on an ignored
 * row (loss and every dx). */
static void
test_labels_ignore(void **state)
{
	Kernel *k = load_kernel_file("tests/runtime/data/dists.rk");
	const char *json = "{\"default\": {\"float\": {\"dist\": \"normal\"}, \"int\": "
			   "{\"dist\": \"labels\", \"frac\": 0.02, \"ignore\": -7}}}";
	Dist ds[16];
	Tensor ts[16];
	Diag d = {0};
	int64_t M = 20000, N = 50, ignored = 0;
	assert_int_equal(inputs_spec(ds, k, "spec.json", json, &d), 0);
	assert_int_equal(inputs_make(ts, k, TY_F32, M, N, 3, ds, &d), 0);
	const Tensor *t = &ts[kernel_param(k, "t")];
	assert_true(at(t, 1) == -7);
	for (int64_t r = 0; r < M; r++) {
		double l = at(t, r);
		assert_true(l == -7 || (l >= 0 && l < N));
		ignored += l == -7;
	}
	assert_true(ignored > 0.015 * M && ignored < 0.025 * M);
	tensors_free(ts, k->nparams);
	kernel_free(k);

	k = load_kernel_file("testdata/kernels/cross_entropy_backward.rk");
	char *spec = slurp_file("testdata/inputs.json");
	int64_t rows[3] = {0, 1, 2};
	double *ref[16];
	M = 3, N = 100;
	assert_int_equal(inputs_spec(ds, k, "inputs.json", spec, &d), 0);
	assert_int_equal(inputs_make(ts, k, TY_BF16, M, N, 9, ds, &d), 0);
	assert_int_equal(reference_rows(ref, k, ts, M, N, rows, M, &d), 0);
	assert_true(at(&ts[kernel_param(k, "t")], 1) == -100);
	int loss = kernel_param(k, "loss"), dx = kernel_param(k, "dx");
	for (int64_t r = 0; r < M; r++) {
		int off = at(&ts[kernel_param(k, "t")], r) == -100;
		assert_true((ref[loss][r] == 0) == off);
		for (int64_t c = 0; c < N && off; c++)
			assert_true(ref[dx][r * N + c] == 0);
	}
	for (int p = 0; p < k->nparams; p++)
		free(ref[p]);
	tensors_free(ts, k->nparams);
	free(spec);
	kernel_free(k);
}

static void
test_inputs_deterministic(void **state)
{
	Spec *s = dists_spec();
	const Kernel *k = s->k;
	Tensor a[16], b[16], c[16];
	Diag d = {0};
	setenv("RKC_THREADS", "1", 1);
	assert_int_equal(inputs_make(a, k, TY_F32, 37, 53, 11, s->ds, &d), 0);
	setenv("RKC_THREADS", "5", 1);
	assert_int_equal(inputs_make(b, k, TY_F32, 37, 53, 11, s->ds, &d), 0);
	assert_int_equal(inputs_make(c, k, TY_F32, 37, 53, 12, s->ds, &d), 0);
	unsetenv("RKC_THREADS");
	int x = kernel_param(k, "x");
	for (int p = 0; p < k->nparams; p++)
		if (a[p].data)
			assert_memory_equal(a[p].data, b[p].data,
					    (size_t)a[p].count * (size_t)type_size(a[p].type));
	assert_memory_not_equal(a[x].data, c[x].data, (size_t)a[x].count * 4);
	/* a row does not depend on how many rows there are: a sample sees the full tensor's row */
	Tensor e[16];
	assert_int_equal(inputs_make(e, k, TY_F32, 5, 53, 11, s->ds, &d), 0);
	assert_memory_equal(a[x].data, e[x].data, 5 * 53 * 4);
	/* nor on where it sits: rows 30..36 of the stream as a batch of 7, every input alike */
	Tensor f[16];
	assert_int_equal(inputs_make_rows(f, k, TY_F32, 7, 53, 11, 30, s->ds, &d), 0);
	for (int p = 0; p < k->nparams; p++) {
		if (!f[p].data || k->params[p].kind != P_IN)
			continue;
		size_t size = (size_t)type_size(f[p].type);
		size_t per = k->params[p].shape == SH_TILE ? 53 : 1;
		size_t at = k->params[p].shape == SH_VEC ? 0 : 30 * per;
		assert_memory_equal((char *)a[p].data + at * size, f[p].data,
				    (size_t)f[p].count * size);
	}
	tensors_free(a, k->nparams);
	tensors_free(b, k->nparams);
	tensors_free(c, k->nparams);
	tensors_free(e, k->nparams);
	tensors_free(f, k->nparams);
	spec_free(s);
}

static void
expect_spec_error(const char *json, const char *msg)
{
	Kernel *k = load_kernel_file("tests/runtime/data/dists.rk");
	Dist ds[16];
	Diag d = {0};
	assert_int_equal(inputs_spec(ds, k, "spec.json", json, &d), -1);
	if (!strstr(d.msg, msg))
		fail_msg("got '%s', expected '%s'", d.msg, msg);
	kernel_free(k);
}

static void
test_spec_errors(void **state)
{
	expect_spec_error("{\"default\": {\"float\": {\"dist\": \"gauss\"}, \"int\": {\"dist\": "
			  "\"labels\"}}}",
			  "spec.json: error: dists.p: unknown dist 'gauss'");
	expect_spec_error("{\"default\": {\"float\": {\"dist\": \"normal\"}}}",
			  "no default distribution for int inputs");
	expect_spec_error(
	    "{\"default\": {\"float\": {\"dist\": \"normal\"}, \"int\": {\"dist\": "
	    "\"labels\"}}, \"kernels\": {\"dists\": {\"y\": {\"dist\": \"normal\"}}}}",
	    "dists: 'y' is not an input of the kernel");
	expect_spec_error(
	    "{\"default\": {\"float\": {\"dist\": \"normal\"}, \"int\": {\"dist\": "
	    "\"labels\"}}, \"kernels\": {\"dists\": {\"x\": {\"dist\": \"labels\"}}}}",
	    "dists.x: labels need an integer input");
	expect_spec_error("{\"default\": {\"float\": {\"dist\": \"normal\"}, \"int\": {\"dist\": "
			  "\"labels\"}}, \"kernels\": {\"dists\": {\"sel\": {\"dist\": "
			  "\"selected_log_prob\", \"logits\": \"x\", \"labels\": \"y\"}}}}",
			  "\"labels\" must name an input");
	expect_spec_error("{\"default\": {\"float\": {\"dist\": \"normal\"}, \"int\": {\"dist\": "
			  "\"labels\", \"frac\": 0.1, \"ignore\": 3}}}",
			  "dists.t: labels take frac in [0, 1] and a negative integer ignore");
	expect_spec_error("{\"default\": {\"float\": {\"dist\": \"normal\"}, \"int\": {\"dist\": "
			  "\"labels\", \"frac\": 1.5}}}",
			  "dists.t: labels take frac in [0, 1] and a negative integer ignore");
	expect_spec_error("{\"default\": ", "spec.json:1:");
}

static void
test_every_kernel_has_inputs(void **state)
{
	/* The shipped spec covers every built-in kernel without an error. */
	int nnames;
	char **names = kernel_names(&nnames);
	assert_true(nnames > 0);
	char *spec = slurp_file("testdata/inputs.json");
	for (int i = 0; i < nnames; i++) {
		Kernel *k = load_kernel(names[i]);
		Dist ds[16];
		Tensor ts[16];
		Diag d = {0};
		if (inputs_spec(ds, k, "inputs.json", spec, &d) ||
		    inputs_make(ts, k, TY_BF16, 3, 17, 1, ds, &d))
			fail_msg("%s: %s", names[i], d.msg);
		tensors_free(ts, k->nparams);
		kernel_free(k);
	}
	free(spec);
	kernel_names_free(names);
}

/* A kernel that computes the reference exactly and stores it in its output types passes every
 * check at both dtypes: the inputs keep the reference finite and the tolerances leave room for
 * the rounding of stores (bf16 outputs, the int8 quantisation). */
static void
test_exact_kernel_passes(void **state)
{
	int nnames;
	char **names = kernel_names(&nnames);
	assert_true(nnames > 0);
	static const Type dtypes[] = {TY_BF16, TY_F32};
	char *spec = slurp_file("testdata/inputs.json"),
	     *tols = slurp_file("testdata/tolerances.json");
	int64_t M = 5, N = 1531;
	int64_t rows[5] = {0, 1, 2, 3, 4};
	for (int i = 0; i < nnames; i++)
		for (int t = 0; t < 2; t++) {
			Kernel *k = load_kernel(names[i]);
			Dist ds[16];
			Tensor ts[16];
			double *ref[16];
			Diag d = {0};
			if (inputs_spec(ds, k, "inputs.json", spec, &d) ||
			    inputs_make(ts, k, dtypes[t], M, N, 5, ds, &d) ||
			    reference_rows(ref, k, ts, M, N, rows, M, &d))
				fail_msg("%s: %s", names[i], d.msg);
			for (int p = 0, oi = 0; p < k->nparams; p++) {
				if (k->params[p].kind != P_OUT)
					continue;
				Type ty = ts[p].type;
				int64_t n = ts[p].count, cols = n / M;
				char *out = malloc((size_t)n * (size_t)type_size(ty));
				for (int64_t e = 0; e < n; e++)
					elem_set(ty, out, e, ref[p][e]);
				double tol = 0;
				if (type_is_float(ty))
					assert_int_equal(
					    tolerance(&tol, k->name, oi, dtypes[t], "t", tols, &d),
					    0);
				Check c;
				check_output(&c, ty, out, out, n, cols, rows, M, ref[p], tol);
				if (!c.pass)
					fail_msg(
					    "%s %s %s: error %g, tolerance %g, %lld non-finite",
					    names[i], type_name(dtypes[t]), k->params[p].name,
					    c.err, c.tol, (long long)c.nonfinite);
				free(out);
				oi++;
			}
			for (int p = 0; p < k->nparams; p++)
				free(ref[p]);
			tensors_free(ts, k->nparams);
			kernel_free(k);
		}
	free(spec);
	free(tols);
	kernel_names_free(names);
}

static void
test_sample_rows(void **state)
{
	int64_t *rows;
	Kernel *k = load_kernel_file("testdata/kernels/rms_norm.rk");
	assert_int_equal(sample_rows(k, 4096, 1000, &rows), 4096);
	assert_int_equal(rows[4095], 4095);
	free(rows);
	assert_int_equal(sample_rows(k, 100, 1 << 22, &rows), 100);
	free(rows);
	int64_t n = sample_rows(k, 4097, 8192, &rows);
	assert_int_equal(n, 256);
	assert_int_equal(rows[0], 0);
	assert_int_equal(rows[n - 1], 4096);
	for (int64_t i = 1; i < n; i++)
		assert_true(rows[i] > rows[i - 1]);
	free(rows);
	kernel_free(k);
	/* a sum over rows needs them all */
	k = load_kernel_file("testdata/kernels/rms_norm_backward.rk");
	assert_int_equal(sample_rows(k, 4097, 8192, &rows), 4097);
	free(rows);
	kernel_free(k);
}

/* A kernel file and its inputs (ts: 8 at most) from testdata/inputs.json's distributions. */
static Kernel *
kernel_inputs(const char *file, Tensor *ts, Type dtype, int64_t M, int64_t N, uint64_t seed)
{
	Kernel *k = load_kernel_file(file);
	char *spec = slurp_file("testdata/inputs.json");
	Dist ds[8];
	Diag d = {0};
	assert_true(k->nparams <= 8);
	assert_int_equal(inputs_spec(ds, k, "inputs.json", spec, &d), 0);
	assert_int_equal(inputs_make(ts, k, dtype, M, N, seed, ds, &d), 0);
	free(spec);
	return k;
}

static void
test_reference_rows(void **state)
{
	/* The reference on sampled rows equals the full run's rows: the packing is right. */
	Tensor ts[8];
	Diag d = {0};
	int64_t M = 9, N = 33;
	Kernel *k = kernel_inputs("testdata/kernels/rms_norm.rk", ts, TY_BF16, M, N, 3);
	int64_t all[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8}, some[3] = {0, 4, 8};
	double *full[8], *part[8];
	assert_int_equal(reference_rows(full, k, ts, M, N, all, M, &d), 0);
	assert_int_equal(reference_rows(part, k, ts, M, N, some, 3, &d), 0);
	int y = kernel_param(k, "y"), r = kernel_param(k, "rstd");
	for (int i = 0; i < 3; i++) {
		assert_true(part[r][i] == full[r][some[i]]);
		assert_memory_equal(&part[y][i * N], &full[y][some[i] * N], sizeof(double) * N);
	}
	assert_true(part[r][1] > 0);
	for (int p = 0; p < k->nparams; p++) {
		free(full[p]);
		free(part[p]);
	}
	tensors_free(ts, k->nparams);
	kernel_free(k);
}

/* A sum over rows in row groups: the columns' sums of the inputs, and the same bits whatever the
 * threads (the groups follow the rows, not the machine). 200000 rows of 16 are 4 groups. */
static void
test_reference_colsum_groups(void **state)
{
	(void)state;
	Tensor ts[8];
	Diag d = {0};
	int64_t M = 200000, N = 16;
	Kernel *k = kernel_inputs("tests/runtime/data/colsum_rows.rk", ts, TY_F32, M, N, 5);
	int64_t *rows = NULL;
	assert_int_equal(sample_rows(k, M, N, &rows), M);
	int x = kernel_param(k, "x"), sp = kernel_param(k, "s"), rp = kernel_param(k, "r");
	double *one[8], *many[8];
	setenv("RKC_THREADS", "1", 1);
	assert_int_equal(reference_rows(one, k, ts, M, N, rows, M, &d), 0);
	setenv("RKC_THREADS", "7", 1);
	assert_int_equal(reference_rows(many, k, ts, M, N, rows, M, &d), 0);
	unsetenv("RKC_THREADS");
	assert_memory_equal(one[sp], many[sp], sizeof(double) * N);
	for (int64_t j = 0; j < N; j++) {
		double want = 0;
		for (int64_t i = 0; i < M; i++)
			want += elem_get(TY_F32, ts[x].data, i * N + j);
		assert_true(fabs(one[sp][j] - want) <= 1e-9 * (1 + fabs(want)));
	}
	assert_true(one[rp][M - 1] == many[rp][M - 1]);
	for (int p = 0; p < k->nparams; p++) {
		free(one[p]);
		free(many[p]);
	}
	free(rows);
	tensors_free(ts, k->nparams);
	kernel_free(k);
}

enum { CR = 4, CC = 8 };

typedef struct {
	float run1[CR * CC], run2[CR * CC];
	double ref[CR * CC];
	int64_t rows[CR];
} Fix;

static void
fix_init(Fix *f, double scale)
{
	for (int i = 0; i < CR * CC; i++) {
		f->ref[i] = sin(i + 1.0);
		f->run1[i] = f->run2[i] = (float)(f->ref[i] * scale);
	}
	for (int r = 0; r < CR; r++)
		f->rows[r] = r;
}

static void
test_check_tolerance_boundary(void **state)
{
	Fix f;
	Check c;
	/* out = ref * (1 + e) has relative L2 error e */
	fix_init(&f, 1.0 + 9.9e-3);
	check_output(&c, TY_F32, f.run1, f.run2, CR * CC, CC, f.rows, CR, f.ref, 1e-2);
	assert_true(c.pass);
	assert_float_equal(c.err, 9.9e-3, 1e-6);
	fix_init(&f, 1.0 + 1.01e-2);
	check_output(&c, TY_F32, f.run1, f.run2, CR * CC, CC, f.rows, CR, f.ref, 1e-2);
	assert_false(c.pass);
	assert_int_equal(c.nonfinite, 0);
	assert_int_equal(c.unwritten, 0);
}

static void
test_check_nan_fails(void **state)
{
	Fix f;
	Check c;
	fix_init(&f, 1.0);
	/* the NaN is in a row the sample does not compare: it still fails */
	f.run1[3 * CC + 2] = f.run2[3 * CC + 2] = NAN;
	check_output(&c, TY_F32, f.run1, f.run2, CR * CC, CC, f.rows, 2, f.ref, 1.0);
	assert_false(c.pass);
	assert_int_equal(c.nonfinite, 1);
	/* in a compared row the error is NaN, which no tolerance accepts */
	check_output(&c, TY_F32, f.run1, f.run2, CR * CC, CC, f.rows, CR, f.ref, INFINITY);
	assert_false(c.pass);
	assert_true(isnan(c.err));
	/* a NaN in the reference fails too */
	fix_init(&f, 1.0);
	f.ref[5] = NAN;
	check_output(&c, TY_F32, f.run1, f.run2, CR * CC, CC, f.rows, CR, f.ref, INFINITY);
	assert_false(c.pass);
}

/* A true value past the output type's range rounds to inf: an inf there is the right answer. */
static void
test_check_nonfinite_as_reference(void **state)
{
	uint16_t h1[4], h2[4];
	double ref[4] = {1.0, -2.0, 1e5, -3.0};
	int64_t rows[2] = {0, 1};
	for (int i = 0; i < 4; i++)
		elem_set(TY_F16, h1, i, ref[i]);
	memcpy(h2, h1, sizeof h1);
	Check c;
	check_output(&c, TY_F16, h1, h2, 4, 2, rows, 2, ref, 1e-3);
	assert_true(isinf(elem_get(TY_F16, h1, 2)));
	assert_true(c.pass);
	assert_int_equal(c.nonfinite, 1);
	assert_int_equal(c.as_ref, 1);
	/* the other sign's inf, or an inf where the reference is finite, fails */
	elem_set(TY_F16, h1, 2, -INFINITY);
	memcpy(h2, h1, sizeof h1);
	check_output(&c, TY_F16, h1, h2, 4, 2, rows, 2, ref, 1e-3);
	assert_false(c.pass);
	elem_set(TY_F16, h1, 2, INFINITY);
	elem_set(TY_F16, h1, 3, INFINITY);
	memcpy(h2, h1, sizeof h1);
	check_output(&c, TY_F16, h1, h2, 4, 2, rows, 2, ref, 1e-3);
	assert_false(c.pass);
	/* in a row the sample leaves out, it cannot be told from a wrong one: it fails */
	elem_set(TY_F16, h1, 3, -3.0);
	memcpy(h2, h1, sizeof h1);
	check_output(&c, TY_F16, h1, h2, 4, 2, rows, 1, ref, 1e-3);
	assert_false(c.pass);
	assert_int_equal(c.as_ref, 0);
	/* fp32 rounds 1e39 to inf as well */
	float f[1] = {INFINITY};
	double big[1] = {1e39};
	check_output(&c, TY_F32, f, f, 1, 1, rows, 1, big, 1e-6);
	assert_true(c.pass);
}

/* A true value under the type's least subnormal is 0 there: a 0 stored for it passes, and a
 * value off by more than the tolerance from the rounded reference still fails. */
static void
test_check_rounded_reference(void **state)
{
	(void)state;
	int64_t rows[1] = {0};
	float f[2] = {0, 0};
	double tiny[2] = {1e-131, 2e-140}; /* sigmoid(-300) in float64: 0 in f32 */
	Check c;
	check_output(&c, TY_F32, f, f, 2, 2, rows, 1, tiny, 1e-3);
	assert_true(c.pass);
	f[1] = 0.5f; /* against a zero reference the error is absolute */
	check_output(&c, TY_F32, f, f, 2, 2, rows, 1, tiny, 1e-3);
	assert_false(c.pass);
	/* f16: 1e-8 rounds to 0, 3e-7 to the subnormal 5 * 2^-24 */
	uint16_t h[2];
	double ref[2] = {1e-8, 3e-7};
	elem_set(TY_F16, h, 0, 0.0);
	elem_set(TY_F16, h, 1, 3e-7);
	check_output(&c, TY_F16, h, h, 2, 2, rows, 1, ref, 1e-3);
	assert_true(c.pass);
	elem_set(TY_F16, h, 1, 2.4e-7);
	check_output(&c, TY_F16, h, h, 2, 2, rows, 1, ref, 1e-3);
	assert_false(c.pass);
}

static void
test_check_unwritten(void **state)
{
	Fix f;
	Check c;
	fix_init(&f, 1.0);
	check_output(&c, TY_F32, f.run1, f.run2, CR * CC, CC, f.rows, CR, f.ref, 1e-6);
	assert_true(c.pass);
	/* one element kept each run's poison: the runs differ there */
	memset(&f.run1[CR * CC - 1], 0xff, 4);
	memset(&f.run2[CR * CC - 1], 0x00, 4);
	check_output(&c, TY_F32, f.run1, f.run2, CR * CC, CC, f.rows, 1, f.ref, 1e-6);
	assert_false(c.pass);
	assert_int_equal(c.unwritten, 1);
}

static void
test_check_int_within_one(void **state)
{
	int8_t a[4] = {1, -5, 127, 0}, b[4] = {1, -5, 127, 0};
	double ref[4] = {2, -5, 126, 0};
	int64_t rows[4] = {0, 1, 2, 3};
	Check c;
	check_output(&c, TY_I8, a, b, 4, 1, rows, 4, ref, 0);
	assert_true(c.pass);
	assert_true(c.is_int);
	assert_true(c.err == 1);
	ref[3] = 2;
	check_output(&c, TY_I8, a, b, 4, 1, rows, 4, ref, 0);
	assert_false(c.pass);
	assert_true(c.err == 2);
}

static void
test_tolerance_table(void **state)
{
	char *t = slurp_file("testdata/tolerances.json");
	double tol = 0;
	Diag d = {0};
	assert_int_equal(tolerance(&tol, "kl_div", 0, TY_BF16, "t.json", t, &d), 0);
	assert_true(tol == 4e-2);
	assert_int_equal(tolerance(&tol, "softmax", 0, TY_F32, "t.json", t, &d), 0);
	assert_true(tol == 1e-3);
	assert_int_equal(tolerance(&tol, "softmax", 0, TY_F16, "t.json", t, &d), 0);
	assert_true(tol == 2e-2);
	assert_int_equal(tolerance(&tol, "cross_entropy", 0, TY_F32, "t.json", t, &d), 0);
	assert_true(tol == 1e-3);
	/* grpo: 3e-2 on the first output only */
	assert_int_equal(tolerance(&tol, "grpo", 0, TY_F32, "t.json", t, &d), 0);
	assert_true(tol == 3e-2);
	assert_int_equal(tolerance(&tol, "grpo", 1, TY_F32, "t.json", t, &d), 0);
	assert_true(tol == 1e-3);
	assert_int_equal(tolerance(&tol, "x", 0, TY_I8, "t.json", t, &d), -1);
	assert_non_null(strstr(d.msg, "no tolerance for x at i8"));
	free(t);
}

/* JSON has no infinity: a default of -inf is the string "-inf" in the manifest, and reads back. */
static void
test_manifest_inf_default(void **state)
{
	Kernel *k = parse_text("k.rk", "kernel k\nin x: T[M,N]\nout y: T[M,N]\nparam lo = -inf\n"
				       "%x = load x\n%y = max %x, lo\nstore y, %y\n");
	Compile c = {"sm_90", TY_F32, 8, 64, {1, 64, 1, 2, 1, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0},
		     0,	      0};
	Buf man = {0};
	codegen_manifest(&man, k, &c, "rkc", 0, NULL, 0);
	assert_non_null(strstr(man.s, "\"default\": \"-inf\""));
	Manifest m;
	Diag d = {0};
	if (manifest_parse(&m, "m.json", man.s, &d))
		fail_msg("%s", d.msg);
	assert_true(isinf(m.params[2].def) && m.params[2].def < 0);
	buf_free(&man);
	kernel_free(k);
}

/* Version 3 as codegen writes it reads back: the grid as a number, the workspace parameter, the
 * version, each array's alignment, a row stride per [M,N] array after N and the stride rule; a
 * version newer than the reader's is refused. */
static void
test_manifest_v3(void **state)
{
	Kernel *k = load_kernel_file("testdata/kernels/long_sum.rk");
	Config g = {.persistent = 0,
		    .r_block = 8192,
		    .m_block = 1,
		    .num_warps = 8,
		    .vec = 4,
		    .split = 16,
		    .min_ctas = 1,
		    .cluster = 1};
	Compile c = {"sm_80", TY_F32, 3, 1048576, g, 0, 0};
	Buf man = {0};
	codegen_manifest(&man, k, &c, "rkc", 0, NULL, 0);
	Manifest m;
	Diag d = {0};
	if (manifest_parse(&m, "m.json", man.s, &d))
		fail_msg("%s", d.msg);
	assert_int_equal(m.version, 3);
	assert_int_equal(m.grid[0], 48);
	assert_int_equal(m.params[m.nparams - 1].kind, MP_WORKSPACE);
	assert_int_equal(m.params[m.nparams - 1].bytes, 16 + 3 * 16 * 4);
	/* x s M N x.stride workspace: x read as 16-byte vectors, s stored a float at a time */
	assert_int_equal(m.nparams, 6);
	assert_int_equal(m.params[0].align, 16);
	assert_int_equal(m.params[1].align, 4);
	assert_int_equal(m.params[4].kind, MP_STRIDE);
	assert_string_equal(m.params[4].name, "x.stride");
	assert_string_equal(m.params[4].of, "x");
	assert_true(m.strides && m.stride_mod == 4 && m.stride_res == 0);
	assert_int_equal(manifest_match(&m, k, &d), 0);
	assert_non_null(strstr(man.s, "\"formula\": \"M*16\""));
	char *v4 = strstr(man.s, "\"manifest_version\": 3");
	assert_non_null(v4);
	v4[strlen("\"manifest_version\": ")] = '4';
	assert_int_equal(manifest_parse(&m, "m.json", man.s, &d), -1);
	assert_non_null(strstr(d.msg, "\"manifest_version\" 4 is not one this rkc reads (1 to 3)"));
	buf_free(&man);
	kernel_free(k);
}

/* The stride rule as the manifest states it: rows that start aligned need a stride that is a
 * multiple of vec, shifted rows (N % vec != 0) N plus a multiple of vec; never below N. */
static void
test_manifest_strides(void **state)
{
	Kernel *k = load_kernel_file("testdata/kernels/cross_entropy.rk");
	Compile c = {
	    "sm_90", TY_BF16, 8, 1001, {1, 1024, 1, 4, 8, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0},
	    0,	     0};
	Buf man = {0};
	codegen_manifest(&man, k, &c, "rkc", 0, NULL, 0);
	/* x is read as 16-byte vectors, the i64 labels one at a time, the loss stored as f32 */
	assert_non_null(strstr(man.s, "\"stride_rule\": {\"modulus\": 8, \"residue\": 1}"));
	assert_non_null(strstr(man.s, "\"name\": \"x\", \"kind\": \"in\", \"type\": \"bf16\", "
				      "\"shape\": \"[M,N]\", \"align\": 16, \"stride_param\": "
				      "\"x.stride\"}"));
	assert_non_null(strstr(man.s, "\"name\": \"t\", \"kind\": \"in\", \"type\": \"i64\", "
				      "\"shape\": \"[M]\", \"align\": 8}"));
	assert_non_null(strstr(man.s, "\"shape\": \"[M]\", \"align\": 4}"));
	Manifest m;
	Diag d = {0};
	if (manifest_parse(&m, "m.json", man.s, &d))
		fail_msg("%s", d.msg);
	assert_int_equal(manifest_stride_check(&m, "x", 1001, &d), 0);
	assert_int_equal(manifest_stride_check(&m, "x", 1009, &d), 0);
	assert_int_equal(manifest_stride_check(&m, "x", 1008, &d), -1);
	assert_string_equal(d.msg, "error: 'x': row stride 1008 breaks the manifest's stride rule: "
				   "at least N=1001 and stride % 8 == 1 (N plus a multiple of 8)");
	d = (Diag){0};
	assert_int_equal(manifest_stride_check(&m, "x", 993, &d), -1);
	/* a manifest without strides (version 2) takes dense rows only */
	m.strides = 0;
	m.version = 2;
	d = (Diag){0};
	assert_int_equal(manifest_stride_check(&m, "x", 1009, &d), -1);
	assert_non_null(strstr(d.msg, "this manifest (version 2) has no row strides"));
	/* rows that start aligned: a multiple of vec */
	c.N = 1024;
	buf_free(&man);
	codegen_manifest(&man, k, &c, "rkc", 0, NULL, 0);
	assert_non_null(strstr(man.s, "\"stride_rule\": {\"modulus\": 8, \"residue\": 0}"));
	/* vec 1: any stride, every array aligned to its element */
	c.cfg.vec = 1;
	buf_free(&man);
	codegen_manifest(&man, k, &c, "rkc", 0, NULL, 0);
	assert_non_null(strstr(man.s, "\"stride_rule\": {\"modulus\": 1, \"residue\": 0}"));
	assert_non_null(strstr(man.s, "\"shape\": \"[M,N]\", \"align\": 2,"));
	/* a stride of no [M,N] array, and an [M,N] array without one */
	d = (Diag){0};
	if (manifest_parse(&m, "m.json", man.s, &d))
		fail_msg("%s", d.msg);
	strcpy(m.params[5].of, "t");
	assert_int_equal(manifest_match(&m, k, &d), -1);
	assert_non_null(strstr(d.msg, "stride 'x.stride' is of 't', not an [M,N] array"));
	m.params[5].kind = MP_WORKSPACE;
	d = (Diag){0};
	assert_int_equal(manifest_match(&m, k, &d), -1);
	assert_non_null(strstr(d.msg, "0 row strides for [M,N] 'x'"));
	buf_free(&man);
	kernel_free(k);
}

/* Rows laid out with padding and gathered back; padding written is counted once an element. */
static void
test_rows_pad(void **state)
{
	uint16_t dense[6] = {1, 2, 3, 4, 5, 6}, padded[2 * 5], back[6];
	rows_pad(padded, dense, 2, 3, 5, 2, 0xab);
	assert_int_equal(padded[5], 4);
	assert_int_equal(padded[3], 0xabab);
	assert_int_equal(padded[9], 0xabab);
	assert_int_equal(rows_unpad(back, padded, 2, 3, 5, 2, 0xab), 0);
	assert_memory_equal(back, dense, sizeof dense);
	((unsigned char *)padded)[2 * 8 + 1] = 0; /* one byte of row 1's first padding element */
	padded[4] = 7;
	assert_int_equal(rows_unpad(back, padded, 2, 3, 5, 2, 0xab), 2);
	assert_int_equal(rows_unpad(back, padded, 2, 3, 5, 2, 0x00), 4);
}

static void
test_manifest(void **state)
{
	char *text = slurp_file("tests/runtime/data/rms_norm.manifest.json");
	Manifest m;
	Diag d = {0};
	assert_int_equal(manifest_parse(&m, "m.json", text, &d), 0);
	assert_string_equal(m.entry, "rms_norm");
	assert_int_equal(m.dtype, TY_BF16);
	assert_int_equal(m.M, 64);
	assert_int_equal(m.nparams, 8);
	assert_int_equal(m.params[1].shape, SH_VEC);
	assert_int_equal(m.params[3].type, TY_F32);
	assert_int_equal(m.params[4].kind, MP_PARAM);
	assert_true(m.params[4].def == 1e-6);
	assert_int_equal(m.params[6].kind, MP_DIM);
	assert_int_equal(m.params[7].bytes, 65536);
	assert_int_equal(m.grid[0], 64);
	assert_int_equal(m.grid[1], 1);
	assert_int_equal(m.block[0], 256);
	assert_non_null(strstr(m.config, "\"r_block\":128"));
	Kernel *k = load_kernel_file("testdata/kernels/rms_norm.rk");
	assert_int_equal(manifest_match(&m, k, &d), 0);
	/* an f32 manifest does not fit a kernel whose x is T at bf16 */
	m.params[0].type = TY_F32;
	assert_int_equal(manifest_match(&m, k, &d), -1);
	assert_non_null(strstr(d.msg, "param 'x' is in f32[M,N], the kernel says in bf16[M,N]"));
	kernel_free(k);
	free(text);
}

static void
expect_manifest_error(const char *json, const char *msg)
{
	Manifest m;
	Diag d = {0};
	assert_int_equal(manifest_parse(&m, "m.json", json, &d), -1);
	if (!strstr(d.msg, msg))
		fail_msg("got '%s', expected '%s'", d.msg, msg);
}

#define HEAD "{\"kernel\": \"k\", \"entry\": \"k\", \"arch\": \"sm_90\", \"dtype\": \"f32\", "
static void
test_manifest_errors(void **state)
{
	expect_manifest_error("[", "m.json:1:");
	expect_manifest_error("{\"kernel\": 1}", "manifest: \"kernel\" must be a string");
	expect_manifest_error(HEAD "\"M\": 1, \"N\": 0, \"params\": []}",
			      "M and N must be positive");
	expect_manifest_error(HEAD "\"M\": 1, \"N\": 1, \"params\": [{\"name\": \"x\", \"kind\": "
				   "\"inout\"}]}",
			      "param 'x' has unknown kind 'inout'");
	expect_manifest_error(HEAD "\"M\": 1, \"N\": 1, \"params\": [{\"name\": \"x\", \"kind\": "
				   "\"in\", \"type\": \"f32\", \"shape\": \"\"}]}",
			      "array 'x' has no shape");
	expect_manifest_error(HEAD "\"M\": 1, \"N\": 1, \"params\": [], \"grid\": {\"x\": \"M\"}, "
				   "\"block\": {\"x\": 32}}",
			      "grid.x must be a positive integer");
	expect_manifest_error(HEAD "\"M\": 1, \"N\": 1, \"params\": []}",
			      "\"grid\" and \"block\" must be objects");
	expect_manifest_error(HEAD
			      "\"M\": 1, \"N\": 1, \"params\": [{\"name\": \"x\", \"kind\": "
			      "\"in\", \"type\": \"f32\", \"shape\": \"[M,N]\", \"align\": 12}]}",
			      "param 'x': \"align\" must be a power of two from 1 to 256");
	expect_manifest_error(HEAD "\"M\": 1, \"N\": 1, \"params\": [{\"name\": \"x.stride\", "
				   "\"kind\": \"stride\", \"type\": \"i32\", \"of\": \"x\"}]}",
			      "stride 'x.stride' must be i64");
	expect_manifest_error(HEAD "\"M\": 1, \"N\": 1, \"params\": [{\"name\": \"x.stride\", "
				   "\"kind\": \"stride\", \"type\": \"i64\"}]}",
			      "\"of\" must be a string");
	expect_manifest_error(HEAD "\"M\": 1, \"N\": 1, \"params\": [{\"name\": \"x.stride\", "
				   "\"kind\": \"stride\", \"type\": \"i64\", \"of\": \"x\"}], "
				   "\"grid\": {\"x\": 1}, \"block\": {\"x\": 32}}",
			      "\"stride_rule\" must be {\"modulus\": m, \"residue\": N % m}");
	expect_manifest_error(HEAD "\"M\": 1, \"N\": 1, \"params\": [], \"grid\": {\"x\": 1}, "
				   "\"block\": {\"x\": 32}, \"stride_rule\": {\"modulus\": 4, "
				   "\"residue\": 0}}",
			      "\"stride_rule\" must be");
	/* a wait over the grid is a wait region's, and "grid" the only such group */
#define REGIONS(E)                                                                                 \
	HEAD "\"M\": 1, \"N\": 1, \"params\": [], \"grid\": {\"x\": 1}, \"block\": {\"x\": 32}, "  \
	     "\"regions\": {\"group\": 1, \"slots\": 1, \"words\": 3, \"every\": 1, \"list\": [" E \
	     "]}}"
	expect_manifest_error(
	    REGIONS("{\"name\": \"colsum\", \"wait\": false, \"over\": \"grid\"}"),
	    "region 0: \"over\" may only be \"grid\", on a wait region");
	expect_manifest_error(
	    REGIONS("{\"name\": \"colsum.wait\", \"wait\": true, \"over\": \"cta\"}"),
	    "region 0: \"over\" may only be \"grid\", on a wait region");
#undef REGIONS
}

/* Four CTAs in clusters of two, a slot each: the CTA + 1, then the boundaries of load, the
 * cluster combine (a wait region) and the row stores. */
static const uint64_t stamps4[] = {
    1, 1000, 1100, 1400, 1450, /* CTA 0 */
    2, 1000, 1300, 1400, 1410, /* CTA 1 */
    3, 2000, 2050, 2100, 2110, /* CTA 2 */
    4, 2000, 2200, 2250, 2260, /* CTA 3 */
};

static MRegions
three_regions(void)
{
	MRegions info = {.n = 3, .group = 2, .every = 1, .slots = 4, .words = 5};
	strcpy(info.r[0].name, "load");
	strcpy(info.r[1].name, "pass0.cluster");
	info.r[1].wait = 1;
	strcpy(info.r[2].name, "rows");
	return info;
}

static void
test_regions_reduce(void **state)
{
	MRegions info = three_regions();
	RegionTable t;
	Diag d = {0};
	if (regions_reduce(&t, &info, stamps4, 4, &d))
		fail_msg("%s", d.msg);
	assert_int_equal(t.n, 3);
	assert_int_equal(t.ctas, 4);
	assert_int_equal(t.blocks, 4);
	/* load: 100, 300, 50, 200 */
	assert_true(t.r[0].med_ns == 150 && t.r[0].max_ns == 300 && t.r[0].mean_ns == 162.5);
	assert_int_equal(t.r[0].blocks, 4);
	/* the cluster combine: 300, 100, 50, 50; arrivals 1100, 1300 | 2050, 2200 */
	assert_true(t.r[1].med_ns == 75 && t.r[1].max_ns == 300);
	assert_true(t.r[1].wait_med_ns == 75 && t.r[1].wait_max_ns == 200);
	/* rows: 50, 10, 10, 10 */
	assert_int_equal(t.r[2].blocks, 4);
	assert_true(t.r[2].med_ns == 10 && t.r[2].max_ns == 50 && t.r[2].mean_ns == 20);
	/* CTAs last 450, 410, 110 and 260 ns: 1230 in all, over a span of 1260 */
	assert_true(fabs(t.r[0].share - 650.0 / 1230) < 1e-12);
	assert_true(fabs(t.r[1].share - 500.0 / 1230) < 1e-12);
	assert_true(fabs(t.r[2].share - 80.0 / 1230) < 1e-12);
	assert_int_equal(t.dominant, 0);
	assert_true(fabs(t.span_us - 1.26) < 1e-12);
	assert_true(fabs(t.resident - 1230.0 / 1260) < 1e-12);
	assert_true(fabs(t.r[0].level_us - 1.26 * 650 / 1230) < 1e-12);
	assert_true(fabs(t.sum_level_us - 1.26) < 1e-12);
	assert_true(fabs(t.block_med_us - 0.335) < 1e-12);
	assert_true(fabs(t.sum_med_us - 0.235) < 1e-12);
	assert_true(t.blocks_per_cta == 1 && fabs(t.cta_us - 0.235) < 1e-12);
	assert_true(t.tick_ns == 10);
	t.kernel_us = 2;
	t.per_sm = 2;
	t.sms = 4;
	t.grid = 4;
	Buf b = {0};
	regions_report(&b, &t);
	assert_non_null(strstr(b.s, "stamps span 1.26 us, 4 row blocks stamped (1 in 1) by 4 CTAs, "
				    "1.0 resident on average, timer step 10 ns"));
	assert_non_null(strstr(b.s, "occupancy: 2 CTAs an SM x 4 SMs; 4 CTAs are 0.50 wave(s)"));
	assert_non_null(strstr(b.s, "  pass0.cluster            4      0.075      0.125      0.300"
				    "   40.7%      0.512      0.075/0.200"));
	assert_non_null(strstr(b.s, "medians sum to 0.235 us (a block's median 0.335 us); 1.00 "
				    "blocks a CTA: 0.235 us (11.8% of the kernel's time)"));
	assert_non_null(strstr(b.s, "sums to 1.260 us (63.0% of the kernel's time); dominant: "
				    "load (52.8%)"));
	buf_free(&b);
}

/* A persistent grid of two CTAs over six row blocks (CTA c runs blocks c, c + 2, c + 4), 1 in 2
 * stamped: the CTA's i-th block when (i + c) % 2 == 0, so blocks 0, 3 and 4. The stats are over
 * the stamped blocks; a CTA's time is a block's times the blocks a CTA runs (3), and the CTAs
 * resident on average count the blocks not stamped (twice the stamped ones' time). */
static void
test_regions_grid(void **state)
{
	static const uint64_t st[] = {
	    1, 100, 150, 160, 170, /* block 0, CTA 0 */
	    0, 0,   0,	 0,   0,   /* block 1, CTA 1: not stamped */
	    0, 0,   0,	 0,   0,   /* block 2, CTA 0: not stamped */
	    2, 200, 260, 270, 272, /* block 3, CTA 1 */
	    1, 220, 235, 250, 251, /* block 4, CTA 0 */
	    0, 0,   0,	 0,   0,   /* block 5, CTA 1: not stamped */
	};
	for (int s = 0; s < 6; s++)
		assert_int_equal(regions_slot_stamped(2, s, 2, 1, 6), st[s * 5] != 0);
	/* without a grid: every 2nd row block (2 CTAs each) and the last */
	for (int s = 0; s < 10; s++)
		assert_int_equal(regions_slot_stamped(2, s, 0, 2, 5),
				 s / 2 == 0 || s / 2 == 2 || s / 2 == 4);
	assert_int_equal(regions_slot_stamped(3, 7, 0, 1, 8), 1);
	assert_int_equal(regions_slot_stamped(3, 5, 0, 1, 8), 0);
	MRegions info = {.n = 3, .group = 1, .every = 2, .slots = 6, .words = 5};
	strcpy(info.r[0].name, "load");
	strcpy(info.r[1].name, "rows");
	strcpy(info.r[2].name, "between");
	RegionTable t;
	Diag d = {0};
	if (regions_reduce(&t, &info, st, 2, &d))
		fail_msg("%s", d.msg);
	assert_int_equal(t.ctas, 2);
	assert_int_equal(t.blocks, 3);
	assert_int_equal(t.every, 2);
	/* load: 50, 60, 15; rows: 10, 10, 15; between: 10, 2, 1; blocks of 70, 72 and 31 ns over
	 * a span of 172 */
	assert_int_equal(t.n, 3);
	assert_true(t.r[0].med_ns == 50 && t.r[0].max_ns == 60 && t.r[0].blocks == 3);
	assert_true(t.r[1].med_ns == 10 && t.r[1].max_ns == 15);
	assert_true(t.r[2].med_ns == 2 && t.r[2].max_ns == 10 && !t.r[2].wait);
	assert_true(fabs(t.sum_med_us - 0.062) < 1e-12 && fabs(t.block_med_us - 0.070) < 1e-12);
	assert_true(t.blocks_per_cta == 3 && fabs(t.cta_us - 0.186) < 1e-12);
	assert_true(fabs(t.span_us - 0.172) < 1e-12);
	assert_true(fabs(t.resident - 346.0 / 172) < 1e-12);
	assert_true(fabs(t.r[0].share - 125.0 / 173) < 1e-12);
	assert_true(fabs(t.r[2].share - 13.0 / 173) < 1e-12);
	assert_true(fabs(t.r[0].level_us - 0.172 * 125 / 173) < 1e-12);
	assert_true(fabs(t.sum_level_us - 0.172) < 1e-12);
}

/* A wait over the whole grid: three CTAs over five row blocks (CTA c runs blocks c and c + 3),
 * every block stamped, the regions rows, between, colsum.wait and colsum.slice. A CTA arrives in
 * its last block's slot (blocks 3, 4 and 2); its first block's slot holds the tail zero long at
 * that block's end. Arrivals 500, 460 and 300 (CTA 2's last block is its first): waits 0, 40 and
 * 200 from the last arrival, 500 (the first blocks' ends, 110 and 130, are not arrivals). */
static void
test_regions_grid_wait(void **state)
{
	static const uint64_t st[] = {
	    1, 10,  100, 110, 110, 110, /* block 0, CTA 0: the tail zero long */
	    2, 20,  120, 130, 130, 130, /* block 1, CTA 1 */
	    3, 30,  290, 300, 520, 530, /* block 2, CTA 2: its last */
	    1, 110, 490, 500, 510, 540, /* block 3, CTA 0 */
	    2, 130, 450, 460, 505, 515, /* block 4, CTA 1 */
	};
	MRegions info = {.n = 4, .group = 1, .every = 1, .slots = 5, .words = 6};
	strcpy(info.r[0].name, "rows");
	strcpy(info.r[1].name, "between");
	strcpy(info.r[2].name, "colsum.wait");
	info.r[2].wait = info.r[2].grid = 1;
	strcpy(info.r[3].name, "colsum.slice");
	RegionTable t;
	Diag d = {0};
	if (regions_reduce(&t, &info, st, 3, &d))
		fail_msg("%s", d.msg);
	assert_true(t.r[2].wait_med_ns == 40 && t.r[2].wait_max_ns == 200);
	/* the same over groups of one CTA a slot would see no wait at all */
	info.r[2].grid = 0;
	if (regions_reduce(&t, &info, st, 3, &d))
		fail_msg("%s", d.msg);
	assert_true(t.r[2].wait_max_ns == 0);
	/* a grid of more CTAs than slots: CTAs 3 and 4 ran nothing */
	info.r[2].grid = 1;
	if (regions_reduce(&t, &info, st, 5, &d))
		fail_msg("%s", d.msg);
	assert_true(t.r[2].wait_med_ns == 40 && t.r[2].wait_max_ns == 200);
}

static void
expect_regions_error(const uint64_t *st, int64_t nctas, const char *msg)
{
	MRegions info = three_regions();
	RegionTable t;
	Diag d = {0};
	assert_int_equal(regions_reduce(&t, &info, st, nctas, &d), -1);
	if (!strstr(d.msg, msg))
		fail_msg("got '%s', expected '%s'", d.msg, msg);
}

static void
test_regions_errors(void **state)
{
	uint64_t st[20];
	memset(st, 0, sizeof st);
	expect_regions_error(st, 4, "no CTA wrote its region stamps");
	memcpy(st, stamps4, sizeof st);
	st[13] = 0; /* CTA 2's cluster combine has no end */
	expect_regions_error(st, 4, "slot 2: region pass0.cluster has a start but no end");
	memcpy(st, stamps4, sizeof st);
	st[17] = 1900; /* CTA 3's load ends before it starts */
	expect_regions_error(st, 4, "slot 3: the stamps go backwards at region load");
	memcpy(st, stamps4, sizeof st);
	st[4] = 1390; /* CTA 0's rows end before they start */
	expect_regions_error(st, 4, "slot 0: the stamps go backwards at region rows");
	memcpy(st, stamps4, sizeof st);
	st[5] = 0; /* stamps with no CTA */
	expect_regions_error(st, 4, "slot 1: its CTA word is 0, not a CTA of the 4 launched + 1");
	memcpy(st, stamps4, sizeof st);
	expect_regions_error(st, 3, "slot 3: its CTA word is 4, not a CTA of the 3 launched + 1");
}

/* The manifest of a kernel compiled with regions: the buffer's parameter, last, and the list the
 * lowering marks, read back by the runtime. */
static void
expect_regions_manifest(const char *kernel, const char *cfg, const char *const *names, int n,
			int group)
{
	Kernel *k = load_kernel_file(kernel);
	Compile c = {.arch = "sm_90", .dtype = TY_BF16, .M = 5, .N = 1000, .regions = 1};
	Diag d = {0};
	if (config_parse(cfg, &c.cfg, &d) || codegen_check(k, &c, &d))
		fail_msg("%s", d.msg);
	Buf man = {0};
	codegen_manifest(&man, k, &c, "rkc", 0, NULL, 0);
	Manifest m;
	if (manifest_parse(&m, "m.json", man.s, &d) || manifest_match(&m, k, &d))
		fail_msg("%s\n%s", d.msg, man.s);
	assert_int_equal(m.regions.n, n);
	assert_int_equal(m.regions.group, group);
	for (int i = 0; i < n; i++) {
		assert_string_equal(m.regions.r[i].name, names[i]);
		int grid = !strcmp(names[i], "colsum.wait");
		assert_int_equal(m.regions.r[i].wait, grid || strstr(names[i], "cluster"));
		assert_int_equal(m.regions.r[i].grid, grid);
	}
	const MParam *last = &m.params[m.nparams - 1];
	assert_int_equal(last->kind, MP_REGIONS);
	/* a slot a row block: CTAs without a grid, more than the grid's CTAs with one */
	int64_t blocks = (c.M + c.cfg.m_block - 1) / c.cfg.m_block * group;
	assert_int_equal(m.regions.slots, blocks);
	assert_int_equal(m.regions.words, n + 2);
	assert_int_equal(m.regions.every, 1); /* 5 rows: every block stamped */
	assert_int_equal(last->bytes, blocks * (n + 2) * 8);
	assert_true(c.cfg.grid > 0 ? m.grid[0] < blocks : m.grid[0] == blocks);
	buf_free(&man);
	kernel_free(k);
}

static void
test_regions_manifest(void **state)
{
	const char *persistent[] = {"load", "combine0", "body1", "rows"};
	expect_regions_manifest("testdata/kernels/rms_norm.rk",
				"persistent=1,r_block=1024,m_block=1,num_warps=4,vec=8,split=1",
				persistent, 4, 1);
	const char *looped[] = {"pass0.loop", "pass0.cross", "pass0.cluster", "apply", "rows"};
	expect_regions_manifest(
	    "testdata/kernels/softmax.rk",
	    "persistent=0,r_block=1024,m_block=1,num_warps=4,vec=8,split=1,cluster=2", looped, 5,
	    2);
	const char *layer_norm[] = {"load",  "combine0", "combine0.cluster",
				    "body1", "combine1", "combine1.cluster",
				    "body2", "rows"};
	expect_regions_manifest(
	    "testdata/kernels/layer_norm.rk",
	    "persistent=1,r_block=512,m_block=1,num_warps=2,vec=8,split=1,cluster=2", layer_norm, 8,
	    2);
	const char *grid[] = {"load", "combine0", "body1", "rows", "between"};
	expect_regions_manifest("testdata/kernels/rms_norm.rk",
				"persistent=1,r_block=1024,m_block=1,num_warps=4,vec=8,grid=2,"
				"dynamic=1",
				grid, 5, 1);
	/* sums over rows on a grid: the tail after the blocks, the grid's wait among it */
	const char *colsum[] = {"load",	   "combine0", "body1",	      "rows",
				"between", "colsum",   "colsum.wait", "colsum.slice"};
	expect_regions_manifest("testdata/kernels/rms_norm_backward.rk",
				"persistent=1,r_block=1024,m_block=1,num_warps=4,vec=8,grid=2",
				colsum, 8, 1);
	/* 1 row block in every stamped: the slots (row blocks times the CTAs a row) over 64, from
	 * 1 to 16 */
	Compile cs = {.M = 1000, .cfg = {.m_block = 2}};
	assert_int_equal(regions_every(&cs), 7); /* 500 blocks */
	cs.M = 255;
	assert_int_equal(regions_every(&cs), 2); /* 128 */
	cs.M = 125;
	assert_int_equal(regions_every(&cs), 1); /* 63 */
	cs.M = 1 << 20;
	assert_int_equal(regions_every(&cs), 16);
	cs = (Compile){.M = 64, .cfg = {.m_block = 1, .split = 4}};
	assert_int_equal(regions_every(&cs), 4); /* 64 rows of 4 segments */
	/* without regions, neither the parameter nor the block */
	Kernel *k = load_kernel_file("testdata/kernels/rms_norm.rk");
	Compile c = {"sm_90", TY_F32, 8, 64, {1, 64, 1, 2, 1, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0},
		     0,	      0};
	Buf man = {0};
	codegen_manifest(&man, k, &c, "rkc", 0, NULL, 0);
	assert_null(strstr(man.s, "regions"));
	buf_free(&man);
	kernel_free(k);
}

static void
test_no_driver(void **state)
{
	/* Without a driver library the runner says so; it does not crash. */
	setenv("RKC_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
	Diag d = {0};
	assert_null(gpu_open(&d));
	assert_non_null(strstr(d.msg, "no CUDA driver: /nonexistent/libcuda.so.1"));
	/* A library that is not the driver is refused by name. */
	setenv("RKC_LIBCUDA", "libm.so.6", 1);
	d = (Diag){0};
	assert_null(gpu_open(&d));
	assert_non_null(strstr(d.msg, "has no cuGetProcAddress_v2"));
	unsetenv("RKC_LIBCUDA");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bf16_rounding),
	    cmocka_unit_test(test_f16_rounding),
	    cmocka_unit_test(test_elem_saturates),
	    cmocka_unit_test(test_distributions_bf16),
	    cmocka_unit_test(test_distributions_f32),
	    cmocka_unit_test(test_labels_ignore),
	    cmocka_unit_test(test_inputs_deterministic),
	    cmocka_unit_test(test_spec_errors),
	    cmocka_unit_test(test_every_kernel_has_inputs),
	    cmocka_unit_test(test_exact_kernel_passes),
	    cmocka_unit_test(test_sample_rows),
	    cmocka_unit_test(test_reference_rows),
	    cmocka_unit_test(test_reference_colsum_groups),
	    cmocka_unit_test(test_check_tolerance_boundary),
	    cmocka_unit_test(test_check_nan_fails),
	    cmocka_unit_test(test_check_nonfinite_as_reference),
	    cmocka_unit_test(test_check_rounded_reference),
	    cmocka_unit_test(test_check_unwritten),
	    cmocka_unit_test(test_check_int_within_one),
	    cmocka_unit_test(test_tolerance_table),
	    cmocka_unit_test(test_manifest),
	    cmocka_unit_test(test_manifest_v3),
	    cmocka_unit_test(test_manifest_strides),
	    cmocka_unit_test(test_rows_pad),
	    cmocka_unit_test(test_manifest_inf_default),
	    cmocka_unit_test(test_manifest_errors),
	    cmocka_unit_test(test_regions_reduce),
	    cmocka_unit_test(test_regions_grid),
	    cmocka_unit_test(test_regions_grid_wait),
	    cmocka_unit_test(test_regions_errors),
	    cmocka_unit_test(test_regions_manifest),
	    cmocka_unit_test(test_no_driver),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
