/* libFuzzer target: generated kernels through the whole pipeline, with the invariants it keeps. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/rkc.h"
#include "frontends/frontends.h"
#include "tests/fuzz/gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Shapes across the supported range (few and many rows, tiny, odd and vocabulary widths), and
 * just past it. */
static const int64_t Ms[] = {1, 2, 7, 64, 1000, 4096, 65537, 1 << 20, INT32_MAX, (int64_t)1 << 31};
static const int64_t Ns[] = {1,	   2,	  3,	  17,	   128,	    896,
			     4097, 65536, 151936, 1 << 20, 1 << 24, ((int64_t)1 << 40) + 1};

/* A --config over some knobs, plausible and not. */
static void
forced_config(GenSrc *s, char *b, size_t cap)
{
	static const char *const knobs[][8] = {
	    {"persistent", "0", "1", "2"},
	    {"r_block", "1", "256", "1000", "4096", "7168", "65536", "1048576"},
	    {"m_block", "1", "2", "4", "16", "64", "256"},
	    {"num_warps", "1", "2", "3", "7", "8", "16", "32"},
	    {"vec", "1", "2", "4", "8", "16"},
	    {"split", "1", "2", "16", "65536"},
	    {"evict", "0", "1"},
	    {"min_ctas", "1", "2", "3", "8"},
	    {"smem", "0", "1", "2"},
	    {"cluster", "1", "2", "16", "132", "1024"},
	    {"grid", "0", "1", "132", "100000"},
	    {"dynamic", "0", "1"},
	    {"ahead", "0", "1", "2", "4", "5"},
	    {"coop", "0", "1"},
	    {"stash", "0", "1"},
	    {"steps", "0", "1"},
	    {"colpass", "0", "1"},
	};
	size_t n = 0;
	b[0] = 0;
	for (size_t i = 0; i < sizeof knobs / sizeof knobs[0]; i++) {
		if (gen_pick(s, 3))
			continue;
		int nv = 0;
		while (nv < 7 && knobs[i][nv + 1])
			nv++;
		n += snprintf(b + n, cap - n, "%s%s=%s", n ? "," : "", knobs[i][0],
			      knobs[i][1 + gen_pick(s, (unsigned)nv)]);
	}
}

static void
fail(const char *what, const char *text, const Request *rq, const char *msg)
{
	fprintf(stderr,
		"fuzz_pipeline: %s\n%s--shape %lldx%lld --dtype %s --arch %s --policy %s%s "
		"--config '%s'\n%s\n",
		what, text, (long long)rq->M, (long long)rq->N, type_name(rq->dtype), rq->arch,
		policy_name(rq->policy), rq->batch_invariant ? " --batch-invariant" : "",
		rq->forced ? rq->forced : "", msg);
	abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[32768];
	GenSrc s = {.p = data, .n = size};
	unsigned head[6];
	for (int i = 0; i < 6; i++)
		head[i] = gen_pick(&s, 256);
	gen_kernel(&s, text, sizeof text);
	Diag d = {0};
	Kernel *k = parse_kernel("fuzz.rk", text, &d);
	if (!k)
		return 0;
	static const Type dts[] = {TY_BF16, TY_F16, TY_F32};
	int narchs;
	const Arch *archs = codegen_archs(&narchs);
	char forced[256];
	forced_config(&s, forced, sizeof forced);
	Request rq = {.k = k,
		      .M = Ms[head[0] % (sizeof Ms / sizeof *Ms)],
		      .N = Ns[head[1] % (sizeof Ns / sizeof *Ns)],
		      .dtype = dts[head[2] % 3],
		      .arch = archs[head[3] % narchs].name,
		      .policy = head[4] & 1 ? POLICY_HELION2828 : POLICY_RKC,
		      .forced = head[4] & 2 && forced[0] ? forced : NULL,
		      /* the batch-invariant mode (its ladder of M, the orders it weighs) */
		      .batch_invariant = !(head[4] & 1) && head[4] & 4};
	/* LLVM is the slow stage: lower one request in eight */
	int lower = head[5] % 8 == 0;
	Result r;
	int explained = rkc_compile(&rq, &r, &d) == 0;
	Diag sd = {0};
	int in_range = shape_check(rq.M, rq.N, &sd) == 0;
	if (explained && !in_range)
		fail("a shape out of range is accepted", text, &rq, sd.msg);
	int refused = !explained && ((k->plan && gen_colsum_refusal(k->plan->ncolsum, d.msg)) ||
				     gen_invariant_refusal(rq.batch_invariant, d.msg));
	if (!explained && !rq.forced && in_range && !refused)
		fail("the policy's own config is rejected", text, &rq, d.msg);
	if (explained) {
		/* what explain accepts, codegen accepts */
		Diag e = {0};
		if (codegen_check(k, &r.compile, &e))
			fail("explain accepted a config codegen rejects", text, &rq, e.msg);
	}
	rkc_result_free(&r);
	if (lower) {
		rq.emit = 1;
		/* the region stamps (docs/regions.md), one lowering in two: every plan, knob and
		 * kernel shape they see */
		rq.regions = head[5] % 16 == 0;
		Diag e = {0};
		int compiled = rkc_compile(&rq, &r, &e) == 0;
		if (compiled != explained)
			fail(explained ? "explain accepted what compile rejects"
				       : "compile accepted what explain rejects",
			     text, &rq, e.msg);
		if (compiled && (!r.ptx.s || !strstr(r.ptx.s, ".entry")))
			fail("no kernel in the PTX", text, &rq, "");
		rkc_result_free(&r);
	}
	kernel_free(k);
	return 0;
}
