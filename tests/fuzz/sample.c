/* Generated kernels x both policies x sm_80 and sm_90, each compiled and assembled by ptxas. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/rkc.h"
#include "frontends/frontends.h"
#include "tests/fuzz/gen.h"

static const int64_t Ms[] = {1, 3, 64, 1000, 16384, 1 << 20};
static const int64_t Ns[] = {1, 7, 128, 896, 4097, 32000, 151936, 1 << 20};

/* sample --write DIR N SEED: the first N valid finite kernels of SEED as DIR/gen-I.rk, for GPU
 * runs (bench/robust_gpu.sh). */
static int
write_kernels(const char *dir, int want, uint64_t seed)
{
	static char text[32768];
	for (uint64_t i = 0; want > 0 && i < 100000; i++) {
		GenSrc s = {.seed = 0x9e3779b97f4a7c15ull * (seed * 1000003 + i + 1), .finite = 1};
		gen_kernel(&s, text, sizeof text);
		Diag d = {0};
		Kernel *k = parse_kernel("sample.rk", text, &d);
		if (!k)
			continue;
		kernel_free(k);
		char path[4096];
		snprintf(path, sizeof path, "%s/gen-%llu.rk", dir, (unsigned long long)i);
		FILE *f = fopen(path, "w");
		if (!f || fputs(text, f) < 0 || fclose(f)) {
			perror(path);
			return 1;
		}
		want--;
	}
	return 0;
}

/* usage: sample NKERNELS [SEED]; prints one line a failure and a summary; exit 1 on any. */
int
main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "--write"))
		return write_kernels(argv[2], atoi(argv[3]), strtoull(argv[4], NULL, 0));
	int want = argc > 1 ? atoi(argv[1]) : 500;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	static const char *const archs[] = {"sm_80", "sm_90"};
	static const Type dts[] = {TY_BF16, TY_F16, TY_F32};
	static char text[32768];
	int kernels = 0, tries = 0, compiles = 0, accepted = 0, failures = 0, refusals = 0;
	for (uint64_t i = 0; kernels < want && tries < 4 * want; i++, tries++) {
		GenSrc s = {.seed = 0x9e3779b97f4a7c15ull * (seed * 1000003 + i + 1)};
		gen_kernel(&s, text, sizeof text);
		Diag d = {0};
		Kernel *k = parse_kernel("sample.rk", text, &d);
		if (!k)
			continue;
		kernels++;
		Request rq = {.k = k,
			      .M = Ms[gen_pick(&s, sizeof Ms / sizeof *Ms)],
			      .N = Ns[gen_pick(&s, sizeof Ns / sizeof *Ns)],
			      .dtype = dts[gen_pick(&s, 3)],
			      .emit = 1};
		for (int a = 0; a < 2; a++)
			for (int p = 0; p < 2; p++) {
				rq.arch = archs[a];
				rq.policy = p ? POLICY_HELION2828 : POLICY_RKC;
				Result r;
				Buf log = {0};
				int ok = rkc_compile(&rq, &r, &d) == 0;
				compiles += ok;
				if (ok && ptxas_run(r.ptx.s, rq.arch, &log, &d) == 0)
					accepted++;
				else if (!ok && k->plan &&
					 gen_colsum_refusal(k->plan->ncolsum, d.msg))
					refusals++;
				else {
					failures++;
					printf(
					    "FAIL seed %llu kernel %llu %lldx%lld %s %s %s: %s\n%s",
					    (unsigned long long)seed, (unsigned long long)i,
					    (long long)rq.M, (long long)rq.N, type_name(rq.dtype),
					    rq.arch, policy_name(rq.policy), d.msg, text);
				}
				buf_free(&log);
				rkc_result_free(&r);
			}
		kernel_free(k);
	}
	printf("%d kernels (%d generated), %d compiles of %d, %d accepted by ptxas, %d refused "
	       "(a sum over rows with no config), %d failed\n",
	       kernels, tries, compiles, 4 * kernels, accepted, refusals, failures);
	return failures || kernels < want ? 1 : 0;
}
