/* The IR layer's bounds: size helpers at the ends of int64_t, the shapes shape_parse accepts and
 * what it makes of them, and the verifier's size limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "analysis/ir.h"

/* None overflows or loops: np2 stops at 2^62, the largest power of two an int64_t holds. */
static void
test_size_helpers(void **state)
{
	assert_int_equal(cdiv(7, 2), 4);
	assert_int_equal(cdiv(0, 3), 0);
	assert_int_equal(cdiv(INT64_MAX, 2), INT64_MAX / 2 + 1);
	assert_int_equal(cdiv(INT64_MAX, 1), INT64_MAX);
	assert_int_equal(np2(0), 1);
	assert_int_equal(np2(5), 8);
	assert_int_equal(np2((int64_t)1 << 40), (int64_t)1 << 40);
	assert_int_equal(np2(((int64_t)1 << 62) + 1), (int64_t)1 << 62);
	assert_int_equal(np2(INT64_MAX), (int64_t)1 << 62);
	assert_int_equal(pp2(1), 1);
	assert_int_equal(pp2(5), 4);
	assert_int_equal(pp2(INT64_MAX), (int64_t)1 << 62);
}

static void
test_shape_parse(void **state)
{
	static const struct {
		const char *s;
		int64_t M, N;
	} good[] = {
	    {"4096x151936", 4096, 151936},
	    {"2x3x5", 6, 5},
	    {"0007x08", 7, 8},
	    {"2147483647x1", INT32_MAX, 1},
	    {"1x1099511627776", 1, (int64_t)1 << 40},
	    {"1048576x1099511627776", 1 << 20, (int64_t)1 << 40},
	    {"32768x65535x1048576", 32768 * 65535, 1 << 20},
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		int64_t M = 0, N = 0;
		Diag d = {0};
		if (shape_parse(good[i].s, &M, &N, &d))
			fail_msg("%s: %s", good[i].s, d.msg);
		assert_int_equal(M, good[i].M);
		assert_int_equal(N, good[i].N);
	}
	static const struct {
		const char *s, *why;
	} bad[] = {
	    {"", "expected digits"},
	    {"x", "expected digits"},
	    {"5x6x", "expected digits"},
	    {"5X6", "expected digits"},
	    {"5x6\n", "expected digits"},
	    {"65536x32768x1", "M is over 2^31-1"},
	    {"3037000500x3037000500x1", "M is over 2^31-1"},
	    {"1x0x5", "M and N must be at least 1"},
	    {"1099511627776x1x1", "M is over 2^31-1"},
	    {"1x1x1099511627777", "N is over 2^40"},
	    {"2x1x576460752303423488", "N is over 2^40"},
	    {"1073741824x1073741825", "M*N is over 2^60"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int64_t M = -1, N = -1;
		Diag d = {0};
		assert_int_equal(shape_parse(bad[i].s, &M, &N, &d), -1);
		if (!strstr(d.msg, bad[i].why) || strncmp(d.msg, "error: bad shape '", 18))
			fail_msg("'%s': %s", bad[i].s, d.msg);
		assert_int_equal(M, -1); /* untouched on error */
	}
}

/* What the library's entry points check (choose, codegen_check): the same rule and message. */
static void
test_shape_check(void **state)
{
	Diag d = {0};
	assert_int_equal(shape_check(INT32_MAX, (int64_t)1 << 29, &d), 0);
	assert_int_equal(shape_check(-5, 8, &d), -1);
	assert_string_equal(d.msg,
			    "error: bad shape '-5x8': M and N must be at least 1; a shape is "
			    "MxN or BxLxN (M = B*L rows) in digits, with 1 <= M <= 2^31-1, 1 "
			    "<= N <= 2^40 and M*N <= 2^60");
	d = (Diag){0};
	assert_int_equal(shape_check(INT32_MAX, ((int64_t)1 << 29) + 1, &d), -1);
	assert_non_null(strstr(d.msg, "M*N is over 2^60"));
	d = (Diag){0};
	assert_int_equal(shape_check(INT64_MAX, INT64_MAX, &d), -1);
	assert_non_null(strstr(d.msg, "M is over 2^31-1"));
}

/* The verifier checks the limits first, whatever built the kernel (the frontends stop earlier). */
static void
test_verify_limits(void **state)
{
	Kernel k = {.name = "big", .file = "big.rk", .nins = MAX_INSTRS + 1};
	Diag d = {0};
	assert_int_equal(kernel_verify(&k, &d), -1);
	assert_string_equal(d.msg, "big.rk: error: too many instructions: a kernel has at most 512 "
				   "statements (docs/ir.md, Limits)");
	k = (Kernel){.name = "big", .file = "big.rk", .nparams = MAX_PARAMS + 1};
	d = (Diag){0};
	assert_int_equal(kernel_verify(&k, &d), -1);
	assert_string_equal(d.msg,
			    "big.rk: error: too many parameters: a kernel has at most 64 in, "
			    "out and param declarations (docs/ir.md, Limits)");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_size_helpers),
	    cmocka_unit_test(test_shape_parse),
	    cmocka_unit_test(test_shape_check),
	    cmocka_unit_test(test_verify_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
