/* The pass plan of every kernel in testdata and tests/analysis/plan against plan/expected.txt. */
#include <glob.h>
#include <string.h>

#include "analysis/analysis.h"
#include "tests/testutil.h"

static void
test_plans(void **state)
{
	(void)state;
	const char *dirs[] = {"testdata/kernels/*.rk", "tests/analysis/plan/*.rk"};
	Buf b = {0};
	for (int i = 0; i < 2; i++) {
		glob_t g;
		if (glob(dirs[i], 0, NULL, &g) == 0)
			for (size_t j = 0; j < g.gl_pathc; j++) {
				Kernel *k = load_kernel_file(g.gl_pathv[j]);
				plan_print(&b, k, k->plan);
				kernel_free(k);
			}
		globfree(&g);
	}
	char *want = slurp_file("tests/analysis/plan/expected.txt");
	int same = b.s && !strcmp(b.s, want);
	if (!same)
		fprintf(stderr, "plans differ from tests/analysis/plan/expected.txt; got:\n%s",
			b.s ? b.s : "");
	free(want);
	buf_free(&b);
	assert_true(same);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_plans)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
