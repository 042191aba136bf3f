/* The lowering's own math, run in the host emulator element by element: fp8 conversions against
 * analysis/ir.c's f8_encode and f8_decode bit for bit, every i8 through cast.f32 exactly, and
 * tanh, erf and pow against C's in double within the bounds docs/ir.md states for the emulator's
 * exact exp2, log2 and 1/x. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/codegen.h"
#include "tests/testutil.h"

/* Runs k, whose params are [1,n] arrays only, over one row of n elements; bufs[p] holds each
 * param's elements in its storage type. */
static void
emulate_row(const Kernel *k, int64_t n, void **bufs)
{
	Compile c = {.arch = "sm_90", .dtype = TY_F32, .M = 1, .N = n};
	Diag d = {0};
	if (config_parse("persistent=0,r_block=128,m_block=1,num_warps=1,vec=4,split=1", &c.cfg,
			 &d))
		fail_msg("%s", d.msg);
	void *args[32];
	int64_t M = 1, N = n;
	void *ws = NULL;
	int ns = codegen_strides(k, NULL);
	assert_true(k->nparams + 3 + ns <= 32);
	for (int p = 0; p < k->nparams; p++)
		args[p] = &bufs[p];
	args[k->nparams] = &M;
	args[k->nparams + 1] = &N;
	for (int i = 0; i < ns; i++) /* one row: its stride is N */
		args[k->nparams + 2 + i] = &N;
	args[k->nparams + 2 + ns] = &ws;
	if (codegen_emulate(k, &c, args, &d))
		fail_msg("%s", d.msg);
}

static float
f32_next(float x, int ulps)
{
	for (int i = 0; i < ulps; i++)
		x = nextafterf(x, INFINITY);
	for (int i = 0; i > ulps; i--)
		x = nextafterf(x, -INFINITY);
	return x;
}

/* Every fp8 value, the midpoints between neighbours and one f32 ulp either side of each, past
 * the largest finite value, infinities, NaN, zeros, f32 subnormals: stored from f32 they give
 * f8_encode's bytes; every byte loaded gives f8_decode's value. */
static void
test_f8_conversions(void **state)
{
	(void)state;
	Kernel *k = parse_text("f8.rk", "kernel f8\n"
					"in x: f32[M,N]\n"
					"in q: f8e4m3[M,N]\n"
					"in r: f8e5m2[M,N]\n"
					"out a: f8e4m3[M,N]\n"
					"out b: f8e5m2[M,N]\n"
					"out qa: f32[M,N]\n"
					"out rb: f32[M,N]\n"
					"%x = load x\n"
					"%q = load q\n"
					"%r = load r\n"
					"store a, %x\n"
					"store b, %x\n"
					"store qa, %q\n"
					"store rb, %r\n");
	enum { CAP = 4096 };
	float *x = calloc(CAP, sizeof *x), *qa = calloc(CAP, 4), *rb = calloc(CAP, 4);
	uint8_t *q = calloc(CAP, 1), *r = calloc(CAP, 1), *a = calloc(CAP, 1), *b = calloc(CAP, 1);
	int n = 0;
	Type ts[2] = {TY_F8E4M3, TY_F8E5M2};
	for (int t = 0; t < 2; t++)
		for (int i = 0; i < 127; i++) {
			double lo = f8_decode(ts[t], (uint8_t)i),
			       hi = f8_decode(ts[t], (uint8_t)(i + 1));
			if (isnan(hi) || isinf(hi))
				continue;
			float mid = (float)((lo + hi) / 2);
			float v[] = {(float)lo, mid, f32_next(mid, -1), f32_next(mid, 1)};
			for (int j = 0; j < 4; j++) {
				x[n++] = v[j];
				x[n++] = -v[j];
			}
		}
	float extra[] = {448,	464,   464.1f,	  480,	      500,	1e30f,
			 57344, 61439, 61440,	  1e6,	      INFINITY, -INFINITY,
			 NAN,	-NAN,  0x1p-149f, -0x1p-140f, 0x1p-17f, -0.0f};
	for (size_t j = 0; j < sizeof extra / sizeof extra[0]; j++)
		x[n++] = extra[j];
	for (int i = 0; i < 256; i++)
		q[i] = r[i] = (uint8_t)i;
	assert_true(n <= CAP);
	void *bufs[] = {x, q, r, a, b, qa, rb};
	emulate_row(k, n, bufs);
	for (int i = 0; i < n; i++) {
		if (a[i] != f8_encode(TY_F8E4M3, x[i]) || b[i] != f8_encode(TY_F8E5M2, x[i]))
			fail_msg("store of %a: e4m3 0x%02x, e5m2 0x%02x; want 0x%02x, 0x%02x", x[i],
				 a[i], b[i], f8_encode(TY_F8E4M3, x[i]),
				 f8_encode(TY_F8E5M2, x[i]));
	}
	for (int i = 0; i < 256; i++) {
		double wq = f8_decode(TY_F8E4M3, (uint8_t)i), wr = f8_decode(TY_F8E5M2, (uint8_t)i);
		if (!(qa[i] == wq || (isnan(qa[i]) && isnan(wq))) ||
		    !(rb[i] == wr || (isnan(rb[i]) && isnan(wr))))
			fail_msg("load of 0x%02x: e4m3 %g, e5m2 %g; want %g, %g", i, qa[i], rb[i],
				 wq, wr);
	}
	free(x), free(qa), free(rb), free(q), free(r), free(a), free(b);
	kernel_free(k);
}

/* Every i8 value through cast.f32 (codegen's i8_to_f32, the biased byte under 2^23's exponent),
 * in every lane of a 4-byte vector: the integer itself, exactly. */
static void
test_i8_cast(void **state)
{
	(void)state;
	Kernel *k = parse_text("i8.rk", "kernel i8\n"
					"in q: i8[M,N]\n"
					"out y: f32[M,N]\n"
					"%q = load q\n"
					"%y = cast.f32 %q\n"
					"store y, %y\n");
	int8_t q[256];
	float y[256];
	for (int i = 0; i < 256; i++)
		q[i] = (int8_t)(i - 128);
	void *bufs[] = {q, y};
	emulate_row(k, 256, bufs);
	for (int i = 0; i < 256; i++)
		if (y[i] != (float)q[i])
			fail_msg("cast.f32 of i8 %d: %g", q[i], y[i]);
	kernel_free(k);
}

/* The error bounds docs/ir.md gives for the emulator: tanh and erf relative above |x| = 1e-3 (and
 * absolute below it); pow relative, over 1 + |y log2 x| (the f32 rounding of y log2 x, an
 * absolute error in the exponent, is a relative error of the result that grows with it). */
#define TANH_REL 4e-7
#define ERF_REL 7e-7
#define TINY_ABS 1e-10
#define POW_REL 2e-7

static void
test_math_accuracy(void **state)
{
	(void)state;
	Kernel *k = parse_text("math.rk", "kernel math\n"
					  "in x: f32[M,N]\n"
					  "in y: f32[M,N]\n"
					  "out t: f32[M,N]\n"
					  "out e: f32[M,N]\n"
					  "out p: f32[M,N]\n"
					  "%x = load x\n"
					  "%y = load y\n"
					  "%t = tanh %x\n"
					  "%e = erf %x\n"
					  "%ax = abs %x\n"
					  "%p = pow %ax, %y\n"
					  "store t, %t\n"
					  "store e, %e\n"
					  "store p, %p\n");
	enum { NX = 40000 };
	float *x = calloc(NX, 4), *y = calloc(NX, 4), *t = calloc(NX, 4), *e = calloc(NX, 4),
	      *p = calloc(NX, 4);
	for (int i = 0; i < NX; i++) {
		/* -10 to 10, denser near 0 and across the 0.5 switch; y from -8 to 8 */
		double u = (i - NX / 2) / (double)(NX / 2);
		x[i] = (float)(10 * u * u * u);
		y[i] = (float)(8 * sin(i * 0.37));
	}
	void *bufs[] = {x, y, t, e, p};
	emulate_row(k, NX, bufs);
	double wt = 0, we = 0, wp = 0;
	for (int i = 0; i < NX; i++) {
		double tt = tanh(x[i]), te = erf(x[i]), tp = pow(fabs(x[i]), y[i]);
		double dt = fabs(t[i] - tt), de = fabs(e[i] - te);
		double dp = fabs(p[i] - tp) / tp / (1 + fabs(y[i] * log2(fabs(x[i]))));
		if (fabs(x[i]) >= 1e-3)
			dt /= fabs(tt), de /= fabs(te);
		else if (dt <= TINY_ABS && de <= TINY_ABS)
			dt = de = 0;
		wt = dt > wt ? dt : wt;
		we = de > we ? de : we;
		if (x[i] != 0 && tp < 1e30 && tp > 1e-30)
			wp = dp > wp ? dp : wp;
	}
	print_message("emulated: tanh %.2g, erf %.2g, pow %.2g worst relative error\n", wt, we, wp);
	assert_true(wt <= TANH_REL);
	assert_true(we <= ERF_REL);
	assert_true(wp <= POW_REL);
	free(x), free(y), free(t), free(e), free(p);
	kernel_free(k);
}

/* pow's special cases against C's: NaN for NaN, infinities and zeros for results past f32's
 * range; -0 is +0 (docs/ir.md). */
static void
test_pow_cases(void **state)
{
	(void)state;
	Kernel *k = parse_text("pow.rk", "kernel powk\n"
					 "in x: f32[M,N]\n"
					 "in y: f32[M,N]\n"
					 "out p: f32[M,N]\n"
					 "out q: f32[M,N]\n"
					 "%x = load x\n"
					 "%y = load y\n"
					 "%p = pow %x, %y\n"
					 "%q = pow %y, %x\n"
					 "store p, %p\n"
					 "store q, %q\n");
	static const float v[] = {0,	 1, -1, 2,	  -2,	     0.5f, -0.5f, 3,   -3,   2.5f,
				  -2.5f, 4, -4, INFINITY, -INFINITY, NAN,  1e-3f, 100, -100, 0.25f};
	enum { NV = sizeof v / sizeof v[0] };
	float x[NV * NV], y[NV * NV], p[NV * NV], q[NV * NV];
	for (int i = 0; i < NV; i++)
		for (int j = 0; j < NV; j++)
			x[i * NV + j] = v[i], y[i * NV + j] = v[j];
	void *bufs[] = {x, y, p, q};
	emulate_row(k, NV * NV, bufs);
	for (int i = 0; i < NV * NV; i++) {
		double want[2] = {pow(x[i], y[i]), pow(y[i], x[i])};
		float got[2] = {p[i], q[i]};
		for (int s = 0; s < 2; s++) {
			int same = got[s] == want[s] || (isnan(got[s]) && isnan(want[s])) ||
				   fabs(got[s] - want[s]) <= 1e-4 * fabs(want[s]) ||
				   (fabs(want[s]) < 1.2e-38 && fabs(got[s]) < 1.2e-38) ||
				   (fabs(want[s]) > 3.4e38 && isinf(got[s]) &&
				    (got[s] > 0) == (want[s] > 0));
			if (!same)
				fail_msg("pow(%g, %g) = %g, C gives %g", s ? y[i] : x[i],
					 s ? x[i] : y[i], got[s], want[s]);
		}
	}
	kernel_free(k);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_f8_conversions),
	    cmocka_unit_test(test_i8_cast),
	    cmocka_unit_test(test_math_accuracy),
	    cmocka_unit_test(test_pow_cases),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
