/* The plan's pass count against the code: explain, the manifest and the lowered loops agree; and
 * its count of a persistent row's exchanges against the exchanges lowered. */
#include <glob.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "codegen/codegen.h"
#include "tests/testutil.h"

/* Blocks of the lowered (unoptimised) IR named name (LLVM numbers repeats: chunk1, chunk2, ...).
 * Each pass over the row is one loop whose header is "chunk"; each exchange of a cooperative row
 * counts in at "coop.arrive". */
static int
count_blocks(const Kernel *k, const Compile *c, const char *name)
{
	size_t len = strlen(name);
	LLVMContextRef cx = LLVMContextCreate();
	LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(k->name, cx);
	Diag d = {0};
	if (lower_kernel(k, c, 0, cx, mod, &d))
		fail_msg("%s: %s", k->name, d.msg);
	int n = 0;
	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
		for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b;
		     b = LLVMGetNextBasicBlock(b)) {
			const char *s = LLVMGetBasicBlockName(b);
			if (strncmp(s, name, len))
				continue;
			s += len;
			while (*s >= '0' && *s <= '9')
				s++;
			n += *s == 0;
		}
	LLVMDisposeModule(mod);
	LLVMContextDispose(cx);
	return n;
}

/* The "passes" the manifest reports. */
static int
manifest_passes(const Kernel *k, const Compile *c)
{
	Buf b = {0};
	codegen_manifest(&b, k, c, "rkc", 0, NULL, 0);
	const char *s = strstr(b.s, "\"passes\": ");
	int n = s ? atoi(s + 10) : -1;
	buf_free(&b);
	return n;
}

static void
check_kernel(const char *path)
{
	Kernel *k = load_kernel_file(path);
	Facts f;
	facts_compute(k, TY_BF16, &f);
	int vec = config_vec(k, TY_BF16, 8192);
	/* looped: 4 warps a row, two chunks of the row a pass */
	Compile c = {
	    "sm_90", TY_BF16, 64, 8192, {0, 4096, 1, 4, vec, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0},
	    0,	     0};
	Diag d = {0};
	/* a sum over rows runs under a persistent grid only */
	int colsum = k->plan->ncolsum > 0;
	c.cfg.grid = colsum ? 16 : 0;
	if (codegen_check(k, &c, &d))
		fail_msg("%s: %s", path, d.msg);
	int loops = count_blocks(k, &c, "chunk");
	if (loops != f.passes || manifest_passes(k, &c) != f.passes)
		fail_msg("%s looped: explain says %d pass(es), the manifest %d, the code "
			 "streams the row %d time(s)",
			 path, f.passes, manifest_passes(k, &c), loops);
	/* persistent: one read, no loop */
	c.N = 1024;
	c.cfg.persistent = 1;
	c.cfg.r_block = 1024;
	c.cfg.grid = colsum ? 16 : 0;
	if (codegen_check(k, &c, &d))
		fail_msg("%s: %s", path, d.msg);
	if (count_blocks(k, &c, "chunk") != 0 || manifest_passes(k, &c) != (f.passes > 0))
		fail_msg("%s persistent: manifest says %d pass(es), %d loop(s)", path,
			 manifest_passes(k, &c), count_blocks(k, &c, "chunk"));
	/* persistent over a cooperative row of 4 CTAs: each exchange counts in once */
	if (!colsum) {
		c.N = 4096;
		c.cfg.cluster = 4;
		c.cfg.coop = 1;
		if (codegen_check(k, &c, &d))
			fail_msg("%s: %s", path, d.msg);
		int ex = count_blocks(k, &c, "coop.arrive");
		if (ex != f.row_exchanges)
			fail_msg("%s persistent: the plan counts %d exchange(s), the code makes %d",
				 path, f.row_exchanges, ex);
	}
	kernel_free(k);
}

static void
test_passes_agree(void **state)
{
	(void)state;
	const char *dirs[] = {"testdata/kernels/*.rk", "tests/analysis/plan/*.rk"};
	int n = 0;
	for (int i = 0; i < 2; i++) {
		glob_t g;
		if (glob(dirs[i], 0, NULL, &g) == 0)
			for (size_t j = 0; j < g.gl_pathc; j++, n++)
				check_kernel(g.gl_pathv[j]);
		globfree(&g);
	}
	if (n < 18)
		fail_msg("only %d kernels found", n);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_passes_agree)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
