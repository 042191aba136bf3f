/* librkc's C ABI for other languages (the Python package, through ctypes): C strings and numbers
 * in, malloc'd strings out (free with rkc_c_free), every error as rkc's diagnostic text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/rkc.h"
#include "frontends/frontends.h"

#define API __attribute__((visibility("default")))

static char *
dup_n(const char *s, size_t n)
{
	char *p = malloc(n + 1);
	if (n)
		memcpy(p, s, n);
	p[n] = 0;
	return p;
}

static char *
dup_s(const char *s)
{
	return dup_n(s, strlen(s));
}

/* The diagnostic without its "error: " (the caller raises it as an error). */
static int
fail(char **msg, const Diag *d)
{
	*msg = dup_s(strncmp(d->msg, "error: ", 7) ? d->msg : d->msg + 7);
	return -1;
}

/* The kernel and the request for it; the kernel is freed by the caller. */
static int
request(Request *rq, Kernel **k, const char *text, const char *file, long long M, long long N,
	const char *dtype, const char *arch, const char *policy, const char *forced,
	int batch_invariant, Diag *d)
{
	*k = NULL;
	*rq = (Request){.M = M,
			.N = N,
			.arch = arch ? arch : "sm_90",
			.forced = forced,
			.batch_invariant = batch_invariant != 0,
			.guard = 1};
	if (rkc_parse_dtype(dtype, &rq->dtype, d) || rkc_parse_arch(rq->arch, d) ||
	    (policy && rkc_parse_policy(policy, &rq->policy, d)) || shape_check(M, N, d))
		return -1;
	if (rq->batch_invariant && rq->policy != POLICY_RKC)
		return diag(d, "batch_invariant is the rkc policy's mode; policy %s has none",
			    policy_name(rq->policy));
	if (!(*k = parse_kernel(file ? file : "<kernel>", text ? text : "", d)))
		return -1;
	rq->k = *k;
	return 0;
}

API const char *
rkc_c_version(void)
{
	return RKC_VERSION;
}

/* The archs codegen emits for, oldest first, comma-separated: "sm_80,sm_86,...". */
API const char *
rkc_c_archs(void)
{
	static char list[256];
	if (!list[0]) {
		int n;
		const Arch *a = codegen_archs(&n);
		for (int i = 0; i < n; i++)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
				 i ? "," : "", a[i].name);
	}
	return list;
}

API void
rkc_c_free(void *p)
{
	free(p);
}

/* The kernel, parsed and verified, in its JSON form (docs/ir.md). 0, or -1 with *msg set. */
API int
rkc_c_kernel(const char *text, const char *file, char **json, char **msg)
{
	Diag d = {0};
	*json = *msg = NULL;
	Kernel *k = parse_kernel(file ? file : "<kernel>", text ? text : "", &d);
	if (!k)
		return fail(msg, &d);
	Buf b = {0};
	kernel_print_json(&b, k);
	*json = b.s;
	kernel_free(k);
	return 0;
}

/* explain's JSON object (rkc_explain_json). 0, or -1 with *msg set. */
API int
rkc_c_explain(const char *text, const char *file, long long M, long long N, const char *dtype,
	      const char *arch, const char *policy, const char *forced, int batch_invariant,
	      char **json, char **msg)
{
	Diag d = {0};
	Request rq;
	Kernel *k;
	Result r = {0};
	*json = *msg = NULL;
	int rc =
	    request(&rq, &k, text, file, M, N, dtype, arch, policy, forced, batch_invariant, &d) ||
	    rkc_compile(&rq, &r, &d);
	if (rc)
		fail(msg, &d);
	else
		*json = rkc_explain_json(&rq, &r);
	rkc_result_free(&r);
	if (k)
		kernel_free(k);
	return rc ? -1 : 0;
}

/* The PTX, the manifest and, with cubin set, ptxas's cubin (*cubin_len bytes), through the cache
 * in cache_dir (NULL: the default; "": none); *hit says whether it was read from the cache. 0 with
 * *msg a warning or NULL, or -1 with *msg the error. */
API int
rkc_c_compile(const char *text, const char *file, long long M, long long N, const char *dtype,
	      const char *arch, const char *policy, const char *forced, int batch_invariant,
	      int cubin, const char *cache_dir, char **ptx, char **manifest, char **cubin_out,
	      size_t *cubin_len, int *hit, char **msg)
{
	Diag d = {0};
	Request rq;
	Kernel *k;
	Artifact a = {0};
	*ptx = *manifest = *cubin_out = *msg = NULL;
	*cubin_len = 0;
	*hit = 0;
	int rc =
	    request(&rq, &k, text, file, M, N, dtype, arch, policy, forced, batch_invariant, &d) ||
	    rkc_compile_cached(&rq, cubin, cache_dir, &a, &d);
	if (rc) {
		fail(msg, &d);
	} else {
		*ptx = dup_n(a.ptx.s, a.ptx.len);
		*manifest = dup_n(a.manifest.s, a.manifest.len);
		if (a.cubin.len) {
			*cubin_out = dup_n(a.cubin.s, a.cubin.len);
			*cubin_len = a.cubin.len;
		}
		*hit = a.hit;
		if (a.warning[0])
			*msg = dup_s(a.warning);
	}
	rkc_artifact_free(&a);
	if (k)
		kernel_free(k);
	return rc ? -1 : 0;
}
