/* The reference interpreter: every kernel of testdata/kernels against plain C loops of its math
 * (the comment at the top of its .rk file), gradients against central differences, and the edge
 * semantics of docs/ir.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "frontends/frontends.h"
#include "tests/testutil.h"

/* The interpreter and these loops do the same float64 math, at most in another order. */
#define TOL 1e-12

/* M of 1 and 3, N prime, N = 1, a power of two. */
static const int64_t shapes[][2] = {{1, 7}, {3, 37}, {2, 1}, {4, 128}};
#define NSHAPES (int)(sizeof shapes / sizeof shapes[0])
#define MAXM 4

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static double
uniform(double lo, double hi)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return lo + (hi - lo) * (double)(rng_state >> 11) * 0x1p-53;
}

/* A kernel's arrays for one M x N run: in and out params get arrays, scalar params NULL. */
typedef struct {
	Kernel *k;
	int64_t M, N;
	double *bufs[32];
} Run;

static int64_t
param_len(const Param *p, int64_t M, int64_t N)
{
	return p->shape == SH_TILE ? M * N : p->shape == SH_ROW ? M : N;
}

static void
run_init(Run *r, Kernel *k, int64_t M, int64_t N)
{
	assert_true(k->nparams <= 32);
	*r = (Run){.k = k, .M = M, .N = N};
	for (int p = 0; p < k->nparams; p++)
		if (k->params[p].kind != P_PARAM)
			r->bufs[p] = calloc(param_len(&k->params[p], M, N), sizeof(double));
}

static void
run_free(Run *r)
{
	for (int p = 0; p < r->k->nparams; p++)
		free(r->bufs[p]);
}

static double *
buf(Run *r, const char *name)
{
	int p = kernel_param(r->k, name);
	if (p < 0)
		fail_msg("%s has no param '%s'", r->k->name, name);
	return r->bufs[p];
}

static int64_t
len(Run *r, const char *name)
{
	return param_len(&r->k->params[kernel_param(r->k, name)], r->M, r->N);
}

static void
fill(Run *r, const char *name, double lo, double hi)
{
	double *b = buf(r, name);
	for (int64_t i = 0; i < len(r, name); i++)
		b[i] = uniform(lo, hi);
}

static void
fill_labels(Run *r, const char *name)
{
	double *b = buf(r, name);
	for (int64_t i = 0; i < r->M; i++)
		b[i] = (double)(int64_t)uniform(0, (double)r->N);
}

/* Rows of log-probabilities: log_softmax of uniform logits. */
static void
fill_logprobs(Run *r, const char *name)
{
	double *b = buf(r, name);
	fill(r, name, -4, 4);
	for (int64_t i = 0; i < r->M; i++) {
		double *x = b + i * r->N, s = 0;
		for (int64_t j = 0; j < r->N; j++)
			s += exp(x[j]);
		for (int64_t j = 0; j < r->N; j++)
			x[j] -= log(s);
	}
}

static void
interp(Run *r)
{
	Diag d = {0};
	if (interp_run(r->k, r->M, r->N, r->bufs, &d))
		fail_msg("%s: %s", r->k->name, d.msg);
}

static void
near(double got, double want, double tol, const char *what, int64_t i)
{
	if (!(fabs(got - want) <= tol * fabs(want) + 1e-300))
		fail_msg("%s[%lld]: got %.17g, want %.17g", what, (long long)i, got, want);
}

static void
near_all(Run *r, const char *name, const double *want)
{
	const double *got = buf(r, name);
	for (int64_t i = 0; i < len(r, name); i++)
		near(got[i], want[i], TOL, name, i);
}

/* References, one row at a time, written from each kernel's math. */

static double
row_max(const double *x, int64_t N)
{
	double m = x[0];
	for (int64_t j = 1; j < N; j++)
		m = x[j] > m ? x[j] : m;
	return m;
}

static double
row_sum(const double *x, int64_t N)
{
	double s = 0;
	for (int64_t j = 0; j < N; j++)
		s += x[j];
	return s;
}

static double
logsumexp(const double *x, int64_t N)
{
	double m = row_max(x, N), s = 0;
	for (int64_t j = 0; j < N; j++)
		s += exp(x[j] - m);
	return m + log(s);
}

static void
ref_rmsnorm(const double *x, const double *w, int64_t N, double *y, double *rstd)
{
	double ss = 0;
	for (int64_t j = 0; j < N; j++)
		ss += x[j] * x[j];
	double r = 1 / sqrt(ss / N + 1e-6);
	for (int64_t j = 0; j < N; j++)
		y[j] = x[j] * r * w[j];
	if (rstd)
		*rstd = r;
}

static void
ref_layernorm(const double *x, const double *w, const double *b, int64_t N, double *y, double *mean,
	      double *rstd)
{
	double mu = row_sum(x, N) / N, var = 0;
	for (int64_t j = 0; j < N; j++)
		var += (x[j] - mu) * (x[j] - mu);
	double r = 1 / sqrt(var / N + 1e-5);
	for (int64_t j = 0; j < N; j++)
		y[j] = (x[j] - mu) * r * w[j] + b[j];
	if (mean)
		*mean = mu, *rstd = r;
}

static void
ref_softmax(const double *a, int64_t N, double *y)
{
	double m = row_max(a, N), s = 0;
	for (int64_t j = 0; j < N; j++)
		s += exp(a[j] - m);
	for (int64_t j = 0; j < N; j++)
		y[j] = exp(a[j] - m) / s;
}

/* JSD with beta 0.5 of student X and teacher Y log-probs; g gets dloss/dX. */
static double
ref_jsd(const double *X, const double *Y, int64_t N, double *g)
{
	double teacher = 0, student = 0;
	for (int64_t j = 0; j < N; j++) {
		double m = log(0.5 * exp(Y[j]) + 0.5 * exp(X[j]));
		teacher += exp(Y[j]) * (Y[j] - m);
		student += exp(X[j]) * (X[j] - m);
		g[j] = 0.5 * exp(X[j]) * (X[j] - m);
	}
	return 0.5 * teacher + 0.5 * student;
}

/*
 * The gradient the kernel stores against central differences of the loss the interpreter
 * itself computes, row by row (each row packed as a one-row run): within 1e-6 of |g| + 1e-3,
 * plus what rounding the loss leaves in the difference.
 */
static void
check_fd(Run *r, const char *in, const char *grad)
{
	const double h = 1e-6;
	double worst = 0;
	Run one;
	run_init(&one, r->k, 1, r->N);
	for (int64_t i = 0; i < r->M; i++) {
		for (int p = 0; p < r->k->nparams; p++) {
			const Param *pa = &r->k->params[p];
			if (pa->kind != P_IN)
				continue;
			/* row i of an [M,N] or [M] input; an [N] input is every row's */
			int64_t at = pa->shape == SH_TILE ? i * r->N : pa->shape == SH_ROW ? i : 0;
			memcpy(one.bufs[p], r->bufs[p] + at,
			       (size_t)param_len(pa, 1, r->N) * sizeof(double));
		}
		double *x = buf(&one, in), *loss = buf(&one, "loss");
		for (int64_t j = 0; j < r->N; j++) {
			double x0 = x[j];
			x[j] = x0 + h;
			interp(&one);
			double up = loss[0];
			x[j] = x0 - h;
			interp(&one);
			double down = loss[0];
			x[j] = x0;
			double fd = (up - down) / (2 * h), g = buf(r, grad)[i * r->N + j];
			/* up and down round at a few DBL_EPSILON of the loss, and the difference
			 * divides that by h: a loss of 10 leaves about 1e-8 of noise in fd */
			double noise = 4 * DBL_EPSILON * fmax(fabs(up), fabs(down)) / h;
			double err = fabs(fd - g) / (1e-6 * (fabs(g) + 1e-3) + noise);
			worst = err > worst ? err : worst;
			if (!(err <= 1))
				fail_msg("%s %s[%lld,%lld]: stored %.12g, central difference %.12g",
					 r->k->name, grad, (long long)i, (long long)j, g, fd);
		}
	}
	print_message(
	    "%s: %s vs central differences, M=%lld N=%lld: worst error %.2g of the bound\n",
	    r->k->name, grad, (long long)r->M, (long long)r->N, worst);
	run_free(&one);
}

/* Every kernel's check runs on each of the shapes. */
typedef struct {
	const char *kernel;
	void (*check)(Run *r);
} Case;

static void
test_kernel(void **state)
{
	const Case *c = *state;
	if (!c->check)
		fail_msg("%s: no plain-C reference for it in tests/analysis/test_interp.c",
			 c->kernel);
	Kernel *k = load_kernel(c->kernel);
	for (int s = 0; s < NSHAPES; s++) {
		Run r;
		run_init(&r, k, shapes[s][0], shapes[s][1]);
		c->check(&r);
		run_free(&r);
	}
	if (!strcmp(c->kernel, "long_sum")) {
		Run r;
		run_init(&r, k, 2, 1 << 20 | 7);
		c->check(&r);
		run_free(&r);
	}
	kernel_free(k);
}

static void
check_rms_norm(Run *r)
{
	int64_t M = r->M, N = r->N;
	fill(r, "x", -2, 2);
	fill(r, "w", 0.5, 1.5);
	interp(r);
	double *y = calloc(M * N, sizeof(double)), rstd[MAXM];
	for (int64_t i = 0; i < M; i++)
		ref_rmsnorm(buf(r, "x") + i * N, buf(r, "w"), N, y + i * N, &rstd[i]);
	near_all(r, "y", y);
	near_all(r, "rstd", rstd);
	free(y);
}

static void
check_layer_norm(Run *r)
{
	int64_t M = r->M, N = r->N;
	fill(r, "x", -2, 3);
	fill(r, "w", 0.5, 1.5);
	fill(r, "b", -1, 1);
	interp(r);
	double *y = calloc(M * N, sizeof(double)), mean[MAXM], rstd[MAXM];
	for (int64_t i = 0; i < M; i++)
		ref_layernorm(buf(r, "x") + i * N, buf(r, "w"), buf(r, "b"), N, y + i * N, &mean[i],
			      &rstd[i]);
	near_all(r, "y", y);
	near_all(r, "mean", mean);
	near_all(r, "rstd", rstd);
	free(y);
}

static void
check_softmax(Run *r)
{
	int64_t M = r->M, N = r->N;
	fill(r, "x", -5, 5);
	interp(r);
	double *y = calloc(M * N, sizeof(double));
	for (int64_t i = 0; i < M; i++)
		ref_softmax(buf(r, "x") + i * N, N, y + i * N);
	near_all(r, "y", y);
	free(y);
}

static void
check_sum(Run *r)
{
	fill(r, "x", -1, 1);
	interp(r);
	double s[MAXM];
	for (int64_t i = 0; i < r->M; i++)
		s[i] = row_sum(buf(r, "x") + i * r->N, r->N);
	near_all(r, "s", s);
}

static void
check_cross_entropy(Run *r)
{
	int64_t M = r->M, N = r->N;
	fill(r, "x", -6, 6);
	fill_labels(r, "t");
	interp(r);
	double loss[MAXM];
	for (int64_t i = 0; i < M; i++) {
		const double *x = buf(r, "x") + i * N;
		loss[i] = logsumexp(x, N) - x[(int64_t)buf(r, "t")[i]];
	}
	near_all(r, "loss", loss);
}

static void
check_kl_div(Run *r)
{
	int64_t M = r->M, N = r->N;
	fill_logprobs(r, "y_pred");
	fill(r, "y_true", 0, 0.2);
	double *yt = buf(r, "y_true");
	for (int64_t i = 0; i < M * N; i += 3)
		yt[i] = 0; /* log(max(0, eps)) is finite, and 0 times it is 0 */
	interp(r);
	double loss[MAXM];
	for (int64_t i = 0; i < M; i++) {
		const double *p = yt + i * N, *q = buf(r, "y_pred") + i * N;
		loss[i] = 0;
		for (int64_t j = 0; j < N; j++)
			loss[i] += p[j] * (log(p[j] > 1e-10 ? p[j] : 1e-10) - q[j]);
	}
	near_all(r, "loss", loss);
}

static void
check_jsd(Run *r)
{
	int64_t M = r->M, N = r->N;
	fill_logprobs(r, "X");
	fill_logprobs(r, "Y");
	interp(r);
	double loss[MAXM], *dx = calloc(M * N, sizeof(double));
	for (int64_t i = 0; i < M; i++)
		loss[i] = ref_jsd(buf(r, "X") + i * N, buf(r, "Y") + i * N, N, dx + i * N);
	near_all(r, "loss", loss);
	near_all(r, "dX", dx);
	check_fd(r, "X", "dX");
	free(dx);
}

static void
check_fused_add_rmsnorm(Run *r)
{
	int64_t M = r->M, N = r->N;
	fill(r, "x", -2, 2);
	fill(r, "res", -2, 2);
	fill(r, "w", 0.5, 1.5);
	interp(r);
	double *h = calloc(M * N, sizeof(double)), *y = calloc(M * N, sizeof(double));
	for (int64_t i = 0; i < M * N; i++)
		h[i] = buf(r, "x")[i] + buf(r, "res")[i];
	for (int64_t i = 0; i < M; i++)
		ref_rmsnorm(h + i * N, buf(r, "w"), N, y + i * N, NULL);
	near_all(r, "h", h);
	near_all(r, "y", y);
	free(h);
	free(y);
}

static void
check_fused_add_layernorm(Run *r)
{
	int64_t M = r->M, N = r->N;
	fill(r, "x", -2, 2);
	fill(r, "res", -1, 3);
	fill(r, "w", 0.5, 1.5);
	fill(r, "b", -1, 1);
	interp(r);
	double *h = calloc(M * N, sizeof(double)), *y = calloc(M * N, sizeof(double));
	for (int64_t i = 0; i < M * N; i++)
		h[i] = buf(r, "x")[i] + buf(r, "res")[i];
	for (int64_t i = 0; i < M; i++)
		ref_layernorm(h + i * N, buf(r, "w"), buf(r, "b"), N, y + i * N, NULL, NULL);
	near_all(r, "h", h);
	near_all(r, "y", y);
	free(h);
	free(y);
}

static void
check_gated_rmsnorm(Run *r)
{
	int64_t M = r->M, N = r->N;
	fill(r, "x", -2, 2);
	fill(r, "z", -4, 4);
	fill(r, "w", 0.5, 1.5);
	interp(r);
	double *g = calloc(M * N, sizeof(double)), *y = calloc(M * N, sizeof(double));
	for (int64_t i = 0; i < M * N; i++) {
		double z = buf(r, "z")[i];
		g[i] = buf(r, "x")[i] * (z / (1 + exp(-z)));
	}
	for (int64_t i = 0; i < M; i++)
		ref_rmsnorm(g + i * N, buf(r, "w"), N, y + i * N, NULL);
	near_all(r, "y", y);
	free(g);
	free(y);
}

static void
check_scaled_masked_softmax(Run *r)
{
	int64_t M = r->M, N = r->N;
	fill(r, "x", -20, 20);
	double *mask = buf(r, "mask"), *a = calloc(M * N, sizeof(double)),
	       *y = calloc(M * N, sizeof(double));
	for (int64_t i = 0; i < M; i++)
		for (int64_t j = 0; j < N; j++)
			mask[i * N + j] = (i + j) % 3 ? 0 : -1e4;
	interp(r);
	for (int64_t i = 0; i < M * N; i++)
		a[i] = 0.125 * buf(r, "x")[i] + mask[i];
	for (int64_t i = 0; i < M; i++)
		ref_softmax(a + i * N, N, y + i * N);
	near_all(r, "y", y);
	if (N > 1)
		assert_true(buf(r, "y")[0] < 1e-300); /* row 0, column 0 is masked */
	free(a);
	free(y);
}

static void
check_cross_entropy_ls_zloss(Run *r)
{
	int64_t M = r->M, N = r->N;
	fill(r, "x", -6, 6);
	fill_labels(r, "t");
	interp(r);
	double loss[MAXM];
	for (int64_t i = 0; i < M; i++) {
		const double *x = buf(r, "x") + i * N;
		double lse = logsumexp(x, N), xt = x[(int64_t)buf(r, "t")[i]];
		loss[i] =
		    (1 - 0.1) * (lse - xt) + 0.1 * (lse - row_sum(x, N) / N) + 1e-4 * lse * lse;
	}
	near_all(r, "loss", loss);
}

/* Round half to even, spelled out rather than through the C library's rint. */
static double
round_even(double v)
{
	double r = floor(v + 0.5);
	if (r - v == 0.5 && fmod(r, 2) != 0)
		r -= 1;
	return r;
}

static void
check_dynamic_quant(Run *r)
{
	int64_t M = r->M, N = r->N;
	fill(r, "x", -3, 3);
	double *x = buf(r, "x");
	if (M > 2) /* a row of zeros: s = 0, x/s is NaN, and the cast gives 0 */
		memset(x + 2 * N, 0, N * sizeof(double));
	interp(r);
	double s[MAXM], *q = calloc(M * N, sizeof(double));
	for (int64_t i = 0; i < M; i++) {
		double amax = 0;
		for (int64_t j = 0; j < N; j++)
			amax = fabs(x[i * N + j]) > amax ? fabs(x[i * N + j]) : amax;
		s[i] = amax / 127;
		for (int64_t j = 0; j < N; j++)
			q[i * N + j] = s[i] ? round_even(x[i * N + j] / s[i]) : 0;
	}
	near_all(r, "s", s);
	near_all(r, "q", q);
	free(q);
}

static void
check_grpo(Run *r)
{
	/* old = logp - off puts c = exp(off) above, inside and below the clamp [0.8, 1.4] */
	static const double off[] = {0.5, -0.05, -0.45, 0.1};
	int64_t M = r->M, N = r->N;
	fill(r, "x", -5, 5);
	fill_labels(r, "t");
	double loss[MAXM], lse[MAXM], logp[MAXM];
	double *old = buf(r, "old"), *ref = buf(r, "ref"), *adv = buf(r, "adv");
	double *xs = calloc(N, sizeof(double));
	for (int64_t i = 0; i < M; i++) {
		const double *x = buf(r, "x") + i * N;
		for (int64_t j = 0; j < N; j++)
			xs[j] = x[j] / 0.9;
		lse[i] = logsumexp(xs, N);
		logp[i] = x[(int64_t)buf(r, "t")[i]] / 0.9 - lse[i];
		old[i] = logp[i] - off[i];
		ref[i] = logp[i] + uniform(-0.5, 0.5);
		adv[i] = i % 2 ? -uniform(0.1, 1) : uniform(0.1, 1);
	}
	interp(r);
	for (int64_t i = 0; i < M; i++) {
		double c = exp(logp[i] - old[i]), d = ref[i] - logp[i];
		double cc = c < 0.8 ? 0.8 : c > 1.4 ? 1.4 : c;
		double pg = fmin(c * adv[i], cc * adv[i]);
		loss[i] = -pg + 0.04 * (exp(d) - d - 1);
	}
	near_all(r, "lse", lse);
	near_all(r, "loss", loss);
	free(xs);
}

static void
check_fused_linear_jsd(Run *r)
{
	int64_t M = r->M, N = r->N;
	fill(r, "student", -4, 4);
	fill(r, "teacher", -4, 4);
	interp(r);
	double loss[MAXM], *ds = calloc(M * N, sizeof(double));
	double *xs = calloc(N, sizeof(double)), *xt = calloc(N, sizeof(double));
	for (int64_t i = 0; i < M; i++) {
		const double *S = buf(r, "student") + i * N, *T = buf(r, "teacher") + i * N;
		double ls = logsumexp(S, N), lt = logsumexp(T, N);
		for (int64_t j = 0; j < N; j++)
			xs[j] = S[j] - ls, xt[j] = T[j] - lt;
		double *g = ds + i * N;
		loss[i] = ref_jsd(xs, xt, N, g);
		/* through log_softmax: dS = g - softmax(S) * sum(g) */
		double sg = row_sum(g, N);
		for (int64_t j = 0; j < N; j++)
			g[j] -= exp(xs[j]) * sg;
	}
	near_all(r, "loss", loss);
	near_all(r, "dS", ds);
	check_fd(r, "student", "dS");
	free(ds);
	free(xs);
	free(xt);
}

/*
 * Cross-entropy forward and backward of one row: q = (1-ls)*onehot(t) + ls/N is the smoothed
 * target, loss = sum_j q_j (lse - x_j) / n and g_j = (softmax(x)_j - q_j) / n; an ignored row
 * gives 0 for both.
 */
static double
ref_ce_backward(const double *x, double t, int64_t N, double ls, double n, double *g)
{
	if (t == -100) {
		for (int64_t j = 0; j < N; j++)
			g[j] = 0;
		return 0;
	}
	double lse = logsumexp(x, N), loss = 0;
	for (int64_t j = 0; j < N; j++) {
		double q = (j == (int64_t)t ? 1 - ls : 0) + ls / N;
		loss += q * (lse - x[j]);
		g[j] = (exp(x[j] - lse) - q) / n;
	}
	return loss / n;
}

/* The loss and gradient of a row add up in another order than the kernel's, and both cancel:
 * lse - x[t] when x[t] dominates (0 when N = 1), p_j - q_j at the label when p_j is near 1. So
 * within CE_TOL of the value or of 1e-6, whichever is larger. */
#define CE_TOL 1e-10

static void
near_abs(double got, double want, const char *what, int64_t i)
{
	if (!(fabs(got - want) <= CE_TOL * (fabs(want) + 1e-6)))
		fail_msg("%s[%lld]: got %.17g, want %.17g", what, (long long)i, got, want);
}

static void
near_ce(Run *r, const double *loss, const double *g)
{
	for (int64_t i = 0; i < r->M; i++)
		near_abs(buf(r, "loss")[i], loss[i], "loss", i);
	for (int64_t e = 0; e < r->M * r->N; e++)
		near_abs(buf(r, "dx")[e], g[e], "dx", e);
}

static void
check_cross_entropy_backward(Run *r)
{
	int64_t M = r->M, N = r->N;
	fill(r, "x", -6, 6);
	fill_labels(r, "t");
	double *t = buf(r, "t");
	for (int64_t i = 1; i < M; i += 2)
		t[i] = -100; /* ignore_index's default: rows 1 and 3 are ignored */
	double loss[MAXM], *g = calloc(M * N, sizeof(double));
	/* the defaults (ls 0, n 1), then smoothing and a mean over the rows kept */
	static const double ls[] = {0, 0.1}, n[] = {1, 3};
	for (int c = 0; c < 2; c++) {
		double lsv = ls[c], nv = n[c];
		r->bufs[kernel_param(r->k, "ls")] = c ? &lsv : NULL;
		r->bufs[kernel_param(r->k, "n")] = c ? &nv : NULL;
		interp(r);
		r->bufs[kernel_param(r->k, "ls")] = NULL;
		r->bufs[kernel_param(r->k, "n")] = NULL;
		for (int64_t i = 0; i < M; i++)
			loss[i] =
			    ref_ce_backward(buf(r, "x") + i * N, t[i], N, ls[c], n[c], g + i * N);
		near_ce(r, loss, g);
		for (int64_t i = 1; i < M; i += 2) {
			assert_true(buf(r, "loss")[i] == 0);
			for (int64_t j = 0; j < N; j++)
				assert_true(buf(r, "dx")[i * N + j] == 0);
		}
	}
	/* with the defaults, dx is the loss's gradient (the last run above had smoothing) */
	interp(r);
	check_fd(r, "x", "dx");
	free(g);
}

/* The forwards the norm backward kernels differentiate, written from their math: L = sum of
 * dy * y over the batch, y = rms_norm(x) * w, or layer_norm(x) * w + b (eps 1e-5). */
static double
norm_loss(int layer, const double *x, const double *dy, const double *w, const double *b, int64_t M,
	  int64_t N)
{
	double L = 0;
	for (int64_t i = 0; i < M; i++) {
		const double *xr = x + i * N;
		double mu = 0, v = 0;
		for (int64_t j = 0; layer && j < N; j++)
			mu += xr[j] / N;
		for (int64_t j = 0; j < N; j++)
			v += (xr[j] - mu) * (xr[j] - mu) / N;
		double r = 1 / sqrt(v + 1e-5);
		for (int64_t j = 0; j < N; j++)
			L += dy[i * N + j] * ((xr[j] - mu) * r * w[j] + (layer ? b[j] : 0));
	}
	return L;
}

/* dx and dw (and db) of the backward kernel, run on the forward's own mean and rstd, against
 * central differences of norm_loss in x, w and b: every row's and every column's. */
static void
check_norm_backward(Run *r, int layer)
{
	int64_t M = r->M, N = r->N;
	fill(r, "x", -2, 2);
	fill(r, "dy", -1, 1);
	fill(r, "w", 0.5, 1.5);
	double *x = buf(r, "x"), *dy = buf(r, "dy"), *w = buf(r, "w");
	double *b = calloc((size_t)N, sizeof(double));
	for (int64_t i = 0; i < M; i++) {
		double mu = 0, v = 0;
		for (int64_t j = 0; layer && j < N; j++)
			mu += x[i * N + j] / N;
		for (int64_t j = 0; j < N; j++)
			v += (x[i * N + j] - mu) * (x[i * N + j] - mu) / N;
		buf(r, "rstd")[i] = 1 / sqrt(v + 1e-5);
		if (layer)
			buf(r, "mean")[i] = mu;
	}
	interp(r);
	const double h = 1e-6;
	struct {
		const char *grad;
		double *wrt;
		int64_t n;
	} ds[3] = {{"dx", x, M * N}, {"dw", w, N}, {"db", b, N}};
	for (int d = 0; d < 2 + layer; d++)
		for (int64_t j = 0; j < ds[d].n; j++) {
			double v0 = ds[d].wrt[j];
			ds[d].wrt[j] = v0 + h;
			double up = norm_loss(layer, x, dy, w, b, M, N);
			ds[d].wrt[j] = v0 - h;
			double dn = norm_loss(layer, x, dy, w, b, M, N);
			ds[d].wrt[j] = v0;
			double fd = (up - dn) / (2 * h), got = buf(r, ds[d].grad)[j];
			if (!(fabs(got - fd) <= 1e-6 * (1 + fabs(fd))))
				fail_msg("%s[%lld]: got %.12g, central difference %.12g",
					 ds[d].grad, (long long)j, got, fd);
		}
	free(b);
}

static void
check_rms_norm_backward(Run *r)
{
	check_norm_backward(r, 0);
}

static void
check_layer_norm_backward(Run *r)
{
	check_norm_backward(r, 1);
}

/* The e4m3 value nearest v, ties to the even mantissa, from the format's definition: 3 mantissa
 * bits, exponents -6 to 8 (below 2^-6 the subnormals' step, 2^-9), 448 the largest value, and
 * anything larger in magnitude saturating to it. */
static double
e4m3(double v)
{
	if (isnan(v))
		return v;
	double a = fabs(v);
	if (a >= 448)
		return copysign(448, v);
	int ex;
	frexp(a, &ex); /* a = f * 2^ex, f in [0.5, 1): its leading bit is 2^(ex-1) */
	double step = ldexp(1, (ex - 1 < -6 ? -6 : ex - 1) - 3);
	return copysign(round_even(a / step) * step, v);
}

static void
check_fp8_quant(Run *r)
{
	int64_t M = r->M, N = r->N;
	fill(r, "x", -3, 3);
	double *x = buf(r, "x");
	if (M > 2) /* a row of zeros: amax's floor keeps the scale above 0, and q is 0 */
		memset(x + 2 * N, 0, N * sizeof(double));
	if (M > 3) /* a row of values under the floor, whose q are under e4m3's smallest */
		for (int64_t j = 0; j < N; j++)
			x[3 * N + j] *= 1e-20;
	interp(r);
	double s[MAXM], *q = calloc((size_t)M * (size_t)N, sizeof(double));
	int hit448 = 0;
	for (int64_t i = 0; i < M; i++) {
		double amax = 0;
		for (int64_t j = 0; j < N; j++)
			amax = fmax(amax, fabs(x[i * N + j]));
		s[i] = fmax(amax, 1e-12) / 448;
		for (int64_t j = 0; j < N; j++) {
			q[i * N + j] = e4m3(x[i * N + j] / s[i]);
			hit448 |= fabs(q[i * N + j]) == 448;
		}
	}
	near_all(r, "scale", s);
	for (int64_t e = 0; e < M * N; e++)
		near(buf(r, "q")[e], q[e], 0, "q", e); /* the same rounding, so exactly */
	assert_true(hit448);			       /* each row's amax maps to 448 */
	free(q);
}

static void
check_gelu_tanh_gated(Run *r)
{
	int64_t M = r->M, N = r->N;
	fill(r, "gate", -4, 4);
	fill(r, "up", -2, 2);
	fill(r, "w", 0.5, 1.5);
	interp(r);
	double *h = calloc(M * N, sizeof(double)), *y = calloc(M * N, sizeof(double)), rstd[MAXM];
	for (int64_t i = 0; i < M * N; i++) {
		double g = buf(r, "gate")[i];
		double gelu = 0.5 * g * (1 + tanh(sqrt(2 / M_PI) * (g + 0.044715 * g * g * g)));
		h[i] = gelu * buf(r, "up")[i];
	}
	for (int64_t i = 0; i < M; i++)
		ref_rmsnorm(h + i * N, buf(r, "w"), N, y + i * N, &rstd[i]);
	/* 1 + tanh(k) cancels in float64 where k is near -5.5 (gate -4), 3 parts in 10^12 of
	 * 3.6e-5; the interpreter's 2 sigmoid(2k) (analysis/rewrite.c) does not */
	for (int64_t i = 0; i < M * N; i++)
		near(buf(r, "y")[i], y[i], 1e-10, "y", i);
	near_all(r, "rstd", rstd);
	free(h);
	free(y);
}

/* Edge semantics, each on a small kernel of its own. */

static void
test_cast_saturates(void **state)
{
	static const double x[] = {-1e30, -3e9,	 -128.9, -2.7, -0.5, 0.5,
				   2.7,	  127.9, 300,	 3e9,  1e30, NAN};
	static const double i8[] = {-128, -128, -128, -2, 0, 0, 2, 127, 127, 127, 127, 0};
	static const double i32[] = {-0x1p31, -0x1p31, -128, -2,	 0,	     0,
				     2,	      127,     300,  0x1p31 - 1, 0x1p31 - 1, 0};
	static const double i64[] = {-0x1p63, -3e9, -128, -2, 0, 0, 2, 127, 300, 3e9, 0x1p63, 0};
	Kernel *k = parse_text("cast.rk", "kernel cast\n"
					  "in x: f32[M,N]\n"
					  "out a: i8[M,N]\n"
					  "out b: i32[M,N]\n"
					  "out c: i64[M,N]\n"
					  "out nz: bool[M,N]\n"
					  "%x = load x\n"
					  "%a = cast.i8 %x\n"
					  "%b = cast.i32 %x\n"
					  "%c = cast.i64 %x\n"
					  "%nz = cast.bool %x\n"
					  "store a, %a\n"
					  "store b, %b\n"
					  "store c, %c\n"
					  "store nz, %nz\n");
	Run r;
	run_init(&r, k, 1, 12);
	memcpy(buf(&r, "x"), x, sizeof x);
	interp(&r);
	for (int j = 0; j < 12; j++) {
		near(buf(&r, "a")[j], i8[j], 0, "a", j);
		near(buf(&r, "b")[j], i32[j], 0, "b", j);
		near(buf(&r, "c")[j], i64[j], 0, "c", j);
		near(buf(&r, "nz")[j], x[j] != 0, 0, "nz", j);
	}
	run_free(&r);
	kernel_free(k);
}

static void
test_int_cast_wraps(void **state)
{
	static const double t[] = {300, -129, 127, -5};
	static const double i8[] = {44, 127, 127, -5};
	Kernel *k = parse_text("wrap.rk", "kernel wrap\n"
					  "in t: i64[M]\n"
					  "out a: i8[M]\n"
					  "%t = load t\n"
					  "%a = cast.i8 %t\n"
					  "store a, %a\n");
	Run r;
	run_init(&r, k, 4, 3);
	memcpy(buf(&r, "t"), t, sizeof t);
	interp(&r);
	for (int i = 0; i < 4; i++)
		near(buf(&r, "a")[i], i8[i], 0, "a", i);
	run_free(&r);
	kernel_free(k);
}

static void
test_round_ties_to_even(void **state)
{
	static const double x[] = {0.5,	 1.5,	    2.5,       -0.5, -1.5,
				   -2.5, 2.4999999, 2.5000001, 3.5,  -3.7};
	static const double y[] = {0, 2, 2, -0., -2, -2, 2, 3, 4, -4};
	Kernel *k = parse_text("round.rk", "kernel round\n"
					   "in x: f32[M,N]\n"
					   "out y: f32[M,N]\n"
					   "%x = load x\n"
					   "%y = round %x\n"
					   "store y, %y\n");
	Run r;
	run_init(&r, k, 1, 10);
	memcpy(buf(&r, "x"), x, sizeof x);
	interp(&r);
	for (int j = 0; j < 10; j++) {
		near(buf(&r, "y")[j], y[j], 0, "y", j);
		assert_int_equal(!!signbit(buf(&r, "y")[j]), !!signbit(y[j]));
	}
	run_free(&r);
	kernel_free(k);
}

static void
check_gather_error(double label, int64_t row)
{
	Kernel *k = load_kernel("cross_entropy");
	Run r;
	run_init(&r, k, 3, 7);
	fill(&r, "x", -1, 1);
	buf(&r, "t")[0] = 6;
	buf(&r, "t")[1] = 0;
	buf(&r, "t")[2] = 3;
	buf(&r, "t")[row] = label;
	Diag d = {0};
	assert_int_equal(interp_run(k, 3, 7, r.bufs, &d), -1);
	char want[128];
	snprintf(want, sizeof want, "in row %lld is outside [0, 7)", (long long)row);
	if (strncmp(d.msg, "testdata/kernels/cross_entropy.rk:16:", 37) || !strstr(d.msg, want))
		fail_msg("unexpected diagnostic: %s", d.msg);
	run_free(&r);
	kernel_free(k);
}

static void
test_gather_out_of_range(void **state)
{
	check_gather_error(7, 1);
	check_gather_error(-1, 2);
	check_gather_error(NAN, 0);
}

static void
test_bad_call(void **state)
{
	Kernel *k = load_kernel("sum");
	Run r;
	run_init(&r, k, 2, 3);
	Diag d = {0};
	assert_int_equal(interp_run(k, 2, 0, r.bufs, &d), -1);
	assert_string_equal(d.msg,
			    "testdata/kernels/sum.rk: error: cannot interpret sum with M=2, N=0");
	free(r.bufs[kernel_param(k, "s")]);
	r.bufs[kernel_param(k, "s")] = NULL;
	d = (Diag){0};
	assert_int_equal(interp_run(k, 2, 3, r.bufs, &d), -1);
	assert_string_equal(d.msg, "testdata/kernels/sum.rk: error: no array for 's'");
	run_free(&r);
	kernel_free(k);
}

/* Ops the kernels of testdata/kernels use little or not at all, row-invariant [N] and scalar values
 * over several rows, a discarded result, and a scalar param given at run time. */
static void
test_other_ops(void **state)
{
	Kernel *k = parse_text("ops.rk", "kernel ops\n"
					 "in x: f32[M,N]\n"
					 "in w: f32[N]\n"
					 "out y: f32[M,N]\n"
					 "out lo: f32[M]\n"
					 "out sd: f32[M]\n"
					 "param c = 3\n"
					 "%x = load x\n"
					 "%w = load w\n"
					 "%c2 = mul c, 2\n"
					 "%w2 = add %w, %c2\n"
					 "%pos = gt %x, 0\n"
					 "%relu = select %pos, %x, 0\n"
					 "%sg = sigmoid %x\n"
					 "%t = mul %relu, %w2\n"
					 "%y = sub %t, %sg\n"
					 "%lo = min %x\n"
					 "_, _, %m2 = welford %x\n"
					 "%v = div %m2, N\n"
					 "%sd = sqrt %v\n"
					 "store y, %y\n"
					 "store lo, %lo\n"
					 "store sd, %sd\n");
	Run r;
	run_init(&r, k, 3, 5);
	fill(&r, "x", -2, 2);
	fill(&r, "w", -1, 1);
	double c = 0.25;
	r.bufs[kernel_param(k, "c")] = &c;
	interp(&r);
	r.bufs[kernel_param(k, "c")] = NULL;
	double y[15], lo[3], sd[3];
	for (int i = 0; i < 3; i++) {
		const double *x = buf(&r, "x") + i * 5;
		lo[i] = x[0];
		double mean = row_sum(x, 5) / 5, m2 = 0;
		for (int j = 0; j < 5; j++) {
			double relu = x[j] > 0 ? x[j] : 0;
			y[i * 5 + j] = relu * (buf(&r, "w")[j] + 0.5) - 1 / (1 + exp(-x[j]));
			lo[i] = x[j] < lo[i] ? x[j] : lo[i];
			m2 += (x[j] - mean) * (x[j] - mean);
		}
		sd[i] = sqrt(m2 / 5);
	}
	near_all(&r, "y", y);
	near_all(&r, "lo", lo);
	near_all(&r, "sd", sd);
	run_free(&r);
	kernel_free(k);
}

/* col against an integer label (onehot), and tanh, erf and pow against values computed
 * elsewhere (to 17 digits); C's pow rules for a negative base. */
static void
test_training_ops(void **state)
{
	(void)state;
	Kernel *k = parse_text("train.rk", "kernel train\n"
					   "in x: f32[M,N]\n"
					   "in t: i64[M]\n"
					   "out oh: f32[M,N]\n"
					   "out th: f32[M,N]\n"
					   "out ef: f32[M,N]\n"
					   "out pw: f32[M,N]\n"
					   "out cb: f32[M,N]\n"
					   "%x = load x\n"
					   "%t = load t\n"
					   "%j = col\n"
					   "%c = eq %j, %t\n"
					   "%oh = select %c, 1, 0\n"
					   "%th = tanh %x\n"
					   "%ef = erf %x\n"
					   "%pw = pow %x, 0.5\n"
					   "%cb = pow %x, 3\n"
					   "store oh, %oh\n"
					   "store th, %th\n"
					   "store ef, %ef\n"
					   "store pw, %pw\n"
					   "store cb, %cb\n");
	static const double x[] = {0.5, -1, 2, 0, -2};
	static const double th[] = {0.46211715726000974, -0.76159415595576489, 0.96402758007581690,
				    0, -0.96402758007581690};
	static const double ef[] = {0.52049987781304654, -0.84270079294971487, 0.99532226501895273,
				    0, -0.99532226501895273};
	static const double pw[] = {0.70710678118654752, NAN, 1.4142135623730951, 0, NAN};
	static const double cb[] = {0.125, -1, 8, 0, -8};
	Run r;
	run_init(&r, k, 2, 5);
	for (int i = 0; i < 2; i++)
		memcpy(buf(&r, "x") + i * 5, x, sizeof x);
	buf(&r, "t")[0] = 3;
	buf(&r, "t")[1] = 0;
	interp(&r);
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 5; j++) {
			int e = i * 5 + j;
			near(buf(&r, "oh")[e], j == (i ? 0 : 3), 0, "oh", e);
			near(buf(&r, "th")[e], th[j], 1e-15, "th", e);
			near(buf(&r, "ef")[e], ef[j], 1e-15, "ef", e);
			near(buf(&r, "cb")[e], cb[j], 0, "cb", e);
			if (isnan(pw[j]))
				assert_true(isnan(buf(&r, "pw")[e]));
			else
				near(buf(&r, "pw")[e], pw[j], 1e-15, "pw", e);
		}
	run_free(&r);
	kernel_free(k);
}

/* The kernel's canonical text (after the rewrites) holds each of has, a NULL-ended list. */
static void
printed_has(const Kernel *k, const char *const *has)
{
	Buf text = {0};
	kernel_print(&text, k);
	for (; *has; has++)
		if (!strstr(text.s, *has))
			fail_msg("no '%s' in:\n%s", *has, text.s);
	buf_free(&text);
}

/* 1 + tanh and 1 - tanh become 2 sigmoid(+-2x) (analysis/rewrite.c), on tiles and on a row
 * value, with new names that miss the kernel's own (p.s is taken), the 2 folded into a literal
 * factor (h = 0.5x), the 2 and a halving cancelled (f, GELU's form, and z, the doubling halved;
 * not in g, whose halving is used twice); a tanh used twice, or plus 2, stays. A tanh whose uses
 * are all 1 + t, 1 - t or the square in 1 - t^2 becomes one sigmoid s and c = 1 - s (sa: (1 + t)
 * (1 - t^2); ba: (1 + t)(1 - t) of a folded literal; pa: 1 - pow(t, 2); ga: GELU's derivative
 * form, its halving cancelled), but not where the square has another use (qa). The source order
 * stays a permutation. The canonical text shows which; the values are the math as written, from
 * C's tanh (1 - t^2 as 1 / cosh^2, exact in float64 where 1 - t^2 cancels). */
static void
test_tanh_rewrite(void **state)
{
	(void)state;
	Kernel *k = parse_text("rw.rk", "kernel rw\n"
					"in x: f32[M,N]\n"
					"out a: f32[M,N]\n"
					"out b: f32[M,N]\n"
					"out c: f32[M,N]\n"
					"out d: f32[M,N]\n"
					"out e: f32[M]\n"
					"out f: f32[M,N]\n"
					"out g: f32[M,N]\n"
					"out z: f32[M,N]\n"
					"out sa: f32[M,N]\n"
					"out ba: f32[M,N]\n"
					"out pa: f32[M,N]\n"
					"out ga: f32[M,N]\n"
					"out qa: f32[M,N]\n"
					"%x = load x\n"
					"%p = tanh %x\n"
					"%p.s = mul %x, 3\n"
					"%a = add 1, %p\n"
					"%h = mul %x, 0.5\n"
					"%q = tanh %h\n"
					"%b = sub 1, %q\n"
					"%t3 = tanh %x\n"
					"%c1 = add %t3, 1\n"
					"%c = mul %c1, %t3\n"
					"%t4 = tanh %x\n"
					"%d0 = add %t4, 2\n"
					"%d = add %d0, %p.s\n"
					"%m = max %x\n"
					"%tm = tanh %m\n"
					"%e = sub 1, %tm\n"
					"%hx = mul %x, 0.5\n"
					"%v = tanh %d0\n"
					"%v1 = add %v, 1\n"
					"%f = mul %hx, %v1\n"
					"%hy = mul 0.5, %x\n"
					"%w = tanh %x\n"
					"%w1 = add 1, %w\n"
					"%g0 = mul %w1, %hy\n"
					"%g = add %g0, %hy\n"
					"%zt = tanh %x\n"
					"%z1 = add 1, %zt\n"
					"%zh = mul %z1, 0.5\n"
					"%z = mul %x, %zh\n"
					"%st = tanh %x\n"
					"%s1 = add %st, 1\n"
					"%s2 = mul %st, %st\n"
					"%s3 = sub 1, %s2\n"
					"%sa = mul %s1, %s3\n"
					"%h2 = mul %x, 0.25\n"
					"%bt = tanh %h2\n"
					"%b1 = add 1, %bt\n"
					"%b2 = sub 1, %bt\n"
					"%ba = mul %b1, %b2\n"
					"%pt = tanh %x\n"
					"%pp = pow %pt, 2\n"
					"%pa = sub 1, %pp\n"
					"%gt = tanh %x\n"
					"%g1 = add %gt, 1\n"
					"%gh = mul %g1, 0.5\n"
					"%gs = mul %gt, %gt\n"
					"%gm = sub 1, %gs\n"
					"%ga = add %gh, %gm\n"
					"%qt = tanh %x\n"
					"%q2 = mul %qt, %qt\n"
					"%q3 = sub 1, %q2\n"
					"%qa = add %q3, %q2\n"
					"store a, %a\n"
					"store b, %b\n"
					"store c, %c\n"
					"store d, %d\n"
					"store e, %e\n"
					"store f, %f\n"
					"store g, %g\n"
					"store z, %z\n"
					"store sa, %sa\n"
					"store ba, %ba\n"
					"store pa, %pa\n"
					"store ga, %ga\n"
					"store qa, %qa\n");
	static const char *const has[] = {
	    "%p.x2 = mul %x, 2\n%p.s1 = sigmoid %p.x2\n",
	    "%a = mul %p.s1, 2\n",
	    "%h.x2 = mul %x, -1\n%q.s = sigmoid %h.x2\n%b = mul %q.s, 2\n",
	    "%t3 = tanh %x\n%c1 = add %t3, 1\n",
	    "%t4 = tanh %x\n%d0 = add %t4, 2\n",
	    "%tm.x2 = mul %m, -2\n%tm.s = sigmoid %tm.x2\n%e = mul %tm.s, 2\n",
	    "%v.x2 = mul %d0, 2\n%v.s = sigmoid %v.x2\n%f = mul %x, %v.s\n",
	    "%w.s = sigmoid %w.x2\n%w1 = mul %w.s, 2\n%g0 = mul %w1, %hy\n",
	    "%zt.s = sigmoid %zt.x2\n%z = mul %x, %zt.s\n",
	    "%st.x2 = mul %x, 2\n%st.s = sigmoid %st.x2\n%st.c = sub 1, %st.s\n"
	    "%s1 = mul %st.s, 2\n%s2 = mul %st.s, %st.c\n%s3 = mul %s2, 4\n",
	    "%h2.x2 = mul %x, 0.5\n%bt.s = sigmoid %h2.x2\n%bt.c = sub 1, %bt.s\n"
	    "%b1 = mul %bt.s, 2\n%b2 = mul %bt.c, 2\n",
	    "%pt.s = sigmoid %pt.x2\n%pt.c = sub 1, %pt.s\n%pp = mul %pt.s, %pt.c\n%pa = mul %pp, "
	    "4\n",
	    "%gt.c = sub 1, %gt.s\n%gs = mul %gt.s, %gt.c\n%gm = mul %gs, 4\n%ga = add %gt.s, "
	    "%gm\n",
	    "%qt = tanh %x\n%q2 = mul %qt, %qt\n",
	    NULL,
	};
	printed_has(k, has);
	char seen[128] = {0};
	assert_true(k->nins <= 128);
	for (int i = 0; i < k->nins; i++) {
		int s = k->ins[i].src;
		assert_true(s >= 0 && s < k->nins && !seen[s]);
		seen[s] = 1;
	}
	static const double x[] = {-9, -3.5, -0.7, -0.01, 0, 0.2, 1.5, 6};
	enum { NX = sizeof x / sizeof x[0] };
	Run r;
	run_init(&r, k, 2, NX);
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < NX; j++)
			buf(&r, "x")[i * NX + j] = x[j] * (i ? -1 : 1);
	interp(&r);
	for (int i = 0; i < 2; i++) {
		double m = -INFINITY;
		for (int j = 0; j < NX; j++) {
			int e = i * NX + j;
			double v = buf(&r, "x")[e], t = tanh(v);
			m = fmax(m, v);
			/* 1 + tanh(-9) keeps 9 digits in float64; the sigmoid all of them */
			near(buf(&r, "a")[e], 1 + t, 1e-8, "a", e);
			near(buf(&r, "b")[e], 1 - tanh(v / 2), 1e-8, "b", e);
			near(buf(&r, "c")[e], (t + 1) * t, TOL, "c", e);
			near(buf(&r, "d")[e], t + 2 + 3 * v, TOL, "d", e);
			near(buf(&r, "f")[e], 0.5 * v * (1 + tanh(t + 2)), 1e-8, "f", e);
			near(buf(&r, "g")[e], 0.5 * v * (1 + t) + 0.5 * v, 1e-8, "g", e);
			near(buf(&r, "z")[e], v * 0.5 * (1 + t), 1e-8, "z", e);
			double sech2 = 1 / (cosh(v) * cosh(v));
			near(buf(&r, "sa")[e], (1 + t) * sech2, 1e-7, "sa", e);
			near(buf(&r, "ba")[e], 1 / (cosh(v / 4) * cosh(v / 4)), 1e-7, "ba", e);
			near(buf(&r, "pa")[e], sech2, 1e-7, "pa", e);
			near(buf(&r, "ga")[e], 0.5 * (1 + t) + sech2, 1e-7, "ga", e);
			near(buf(&r, "qa")[e], 1 - t * t + t * t, TOL, "qa", e);
		}
		near(buf(&r, "e")[i], 1 - tanh(m), 1e-8, "e", i);
	}
	run_free(&r);
	kernel_free(k);
}

/* pow by 2 and 3 become multiplies (analysis/rewrite.c), keeping C's results at -0, infinities
 * and NaN; by 2.5 it stays. */
static void
test_pow_rewrite(void **state)
{
	(void)state;
	Kernel *k = parse_text("pw.rk", "kernel pw\n"
					"in x: f32[M,N]\n"
					"out a: f32[M,N]\n"
					"out b: f32[M,N]\n"
					"out c: f32[M,N]\n"
					"%x = load x\n"
					"%a = pow %x, 2\n"
					"%b = pow %x, 3\n"
					"%c = pow %x, 2.5\n"
					"store a, %a\n"
					"store b, %b\n"
					"store c, %c\n");
	static const char *const has[] = {
	    "%a = mul %x, %x\n",
	    "%b.sq = mul %x, %x\n%b = mul %b.sq, %x\n",
	    "%c = pow %x, 2.5\n",
	    NULL,
	};
	printed_has(k, has);
	static const double x[] = {-3, -0.0, 0, 1.5, 1e-200, INFINITY, -INFINITY, NAN};
	enum { NX = sizeof x / sizeof x[0] };
	Run r;
	run_init(&r, k, 1, NX);
	memcpy(buf(&r, "x"), x, sizeof x);
	interp(&r);
	for (int j = 0; j < NX; j++) {
		double a = buf(&r, "a")[j], b = buf(&r, "b")[j], pa = pow(x[j], 2),
		       pb = pow(x[j], 3);
		if (isnan(x[j])) {
			assert_true(isnan(a) && isnan(b));
			continue;
		}
		if (isinf(x[j])) {
			assert_true(a == pa && b == pb);
		} else {
			near(a, pa, TOL, "a", j);
			near(b, pb, TOL, "b", j);
		}
		assert_true(signbit(a) == signbit(pa) && signbit(b) == signbit(pb));
	}
	run_free(&r);
	kernel_free(k);
}

/* Stores into fp8 outputs and casts to fp8 round to nearest even and saturate (docs/ir.md); the
 * float64 value of a store into f32 does not round. */
static void
test_f8_rounding(void **state)
{
	(void)state;
	Kernel *k = parse_text("f8.rk", "kernel f8\n"
					"in x: f32[M,N]\n"
					"out a: f8e4m3[M,N]\n"
					"out b: f8e5m2[M,N]\n"
					"out c: f32[M,N]\n"
					"%x = load x\n"
					"%c8 = cast.f8e4m3 %x\n"
					"%c = mul %c8, 2\n"
					"store a, %x\n"
					"store b, %x\n"
					"store c, %c\n");
	static const double x[] = {1.0625, 1.1875,    0.3,     464,   500,
				   1e6,	   -INFINITY, 0x1p-10, 1e-30, NAN};
	static const double a[] = {1, 1.25, 0.3125, 448, 448, 448, -448, 0, 0, NAN};
	static const double b[] = {1, 1.25, 0.3125, 448, 512, 57344, -57344, 0x1p-10, 0, NAN};
	enum { NX = sizeof x / sizeof x[0] };
	Run r;
	run_init(&r, k, 1, NX);
	memcpy(buf(&r, "x"), x, sizeof x);
	interp(&r);
	for (int j = 0; j < NX; j++) {
		if (isnan(x[j])) {
			assert_true(isnan(buf(&r, "a")[j]) && isnan(buf(&r, "b")[j]));
			assert_true(isnan(buf(&r, "c")[j]));
			continue;
		}
		near(buf(&r, "a")[j], a[j], 0, "a", j);
		near(buf(&r, "b")[j], b[j], 0, "b", j);
		near(buf(&r, "c")[j], 2 * a[j], 0, "c", j);
	}
	run_free(&r);
	kernel_free(k);
}

int
main(void)
{
	static const Case known[] = {
	    {"rms_norm", check_rms_norm},
	    {"layer_norm", check_layer_norm},
	    {"softmax", check_softmax},
	    {"sum", check_sum},
	    {"long_sum", check_sum},
	    {"cross_entropy", check_cross_entropy},
	    {"kl_div", check_kl_div},
	    {"jsd", check_jsd},
	    {"welford", check_layer_norm},
	    {"fused_add_rmsnorm", check_fused_add_rmsnorm},
	    {"fused_add_layernorm", check_fused_add_layernorm},
	    {"gated_rmsnorm", check_gated_rmsnorm},
	    {"scaled_masked_softmax", check_scaled_masked_softmax},
	    {"cross_entropy_ls_zloss", check_cross_entropy_ls_zloss},
	    {"dynamic_quant", check_dynamic_quant},
	    {"grpo", check_grpo},
	    {"fused_linear_jsd", check_fused_linear_jsd},
	    {"cross_entropy_backward", check_cross_entropy_backward},
	    {"fp8_quant", check_fp8_quant},
	    {"gelu_tanh_gated", check_gelu_tanh_gated},
	    {"rms_norm_backward", check_rms_norm_backward},
	    {"layer_norm_backward", check_layer_norm_backward},
	};
	/* one test a kernel of testdata/kernels; one without a reference above fails */
	int n;
	char **names = kernel_names(&n);
	if (n == 0) {
		fprintf(stderr, "no kernels in testdata/kernels\n");
		return 1;
	}
	Case *cases = calloc((size_t)n, sizeof *cases);
	enum { NFIXED = 10 };
	struct CMUnitTest *tests = calloc((size_t)n + NFIXED, sizeof *tests);
	const struct CMUnitTest fixed[NFIXED] = {
	    cmocka_unit_test(test_cast_saturates),     cmocka_unit_test(test_int_cast_wraps),
	    cmocka_unit_test(test_round_ties_to_even), cmocka_unit_test(test_gather_out_of_range),
	    cmocka_unit_test(test_other_ops),	       cmocka_unit_test(test_bad_call),
	    cmocka_unit_test(test_training_ops),       cmocka_unit_test(test_f8_rounding),
	    cmocka_unit_test(test_tanh_rewrite),       cmocka_unit_test(test_pow_rewrite),
	};
	memcpy(tests, fixed, sizeof fixed);
	for (int i = 0; i < n; i++) {
		cases[i].kernel = names[i];
		for (size_t j = 0; j < sizeof known / sizeof known[0]; j++)
			if (!strcmp(known[j].kernel, names[i]))
				cases[i].check = known[j].check;
		tests[NFIXED + i] = (struct CMUnitTest){
		    .name = names[i], .test_func = test_kernel, .initial_state = &cases[i]};
	}
	int rc = _cmocka_run_group_tests("test_interp", tests, (size_t)n + NFIXED, NULL, NULL);
	free(tests);
	free(cases);
	kernel_names_free(names);
	return rc;
}
