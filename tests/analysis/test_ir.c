/* The IR layer's bounds: size helpers at the ends of int64_t, the shapes shape_parse accepts and
 * what it makes of them, the verifier's size limits, and the fp8 encodings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
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

/* fp8 bytes from the formats' definitions (OCP 8-bit floating point): e4m3 has bias 7, no
 * infinities and 0x7f as NaN, so 448 (0x7e) is its largest value; e5m2 has bias 15 and IEEE's
 * infinities and NaNs, 57344 (0x7b) its largest finite value. */
static void
test_f8(void **state)
{
	(void)state;
	static const struct {
		double x;
		uint8_t e4, e5;
	} enc[] = {
	    {1, 0x38, 0x3c},
	    {-2, 0xc0, 0xc0},
	    {448, 0x7e, 0x5f},
	    {464, 0x7e, 0x5f},	    /* e4m3: a tie between 448 and 480 goes to even, 448 */
	    {1e6, 0x7e, 0x7b},	    /* saturates */
	    {INFINITY, 0x7e, 0x7b}, /* saturates too */
	    {-INFINITY, 0xfe, 0xfb},
	    {57344, 0x7e, 0x7b},
	    {1.0625, 0x38, 0x3c},    /* ties to even: 1 */
	    {1.1875, 0x3a, 0x3d},    /* e4m3 tie of 1.125 and 1.25: even 1.25; e5m2 nearest 1.25 */
	    {0x1p-9, 0x01, 0x18},    /* e4m3's smallest subnormal */
	    {0x1p-10, 0x00, 0x14},   /* e4m3: a tie of 0 and 2^-9 goes to 0 */
	    {0x1.8p-10, 0x01, 0x16}, /* e4m3: 0.75 of a step rounds up */
	    {0x1p-6, 0x08, 0x24},    /* e4m3's smallest normal */
	    {0x1p-16, 0x00, 0x01},   /* e5m2's smallest subnormal */
	    {-0.0, 0x80, 0x80},
	    {NAN, 0x7f, 0x7f},
	};
	for (size_t i = 0; i < sizeof enc / sizeof enc[0]; i++) {
		if (f8_encode(TY_F8E4M3, enc[i].x) != enc[i].e4 ||
		    f8_encode(TY_F8E5M2, enc[i].x) != enc[i].e5)
			fail_msg("%a: 0x%02x 0x%02x, want 0x%02x 0x%02x", enc[i].x,
				 f8_encode(TY_F8E4M3, enc[i].x), f8_encode(TY_F8E5M2, enc[i].x),
				 enc[i].e4, enc[i].e5);
	}
	assert_true(f8_decode(TY_F8E4M3, 0x7e) == 448);
	assert_true(f8_decode(TY_F8E4M3, 0x01) == 0x1p-9);
	assert_true(f8_decode(TY_F8E4M3, 0xb8) == -1);
	assert_true(isnan(f8_decode(TY_F8E4M3, 0x7f)) && isnan(f8_decode(TY_F8E4M3, 0xff)));
	assert_true(f8_decode(TY_F8E5M2, 0x7b) == 57344);
	assert_true(f8_decode(TY_F8E5M2, 0x7c) == INFINITY);
	assert_true(f8_decode(TY_F8E5M2, 0xfc) == -INFINITY);
	assert_true(isnan(f8_decode(TY_F8E5M2, 0x7d)));
	assert_true(f8_decode(TY_F8E5M2, 0x01) == 0x1p-16);
	/* every finite byte reads back to itself */
	for (int b = 0; b < 256; b++) {
		double v4 = f8_decode(TY_F8E4M3, (uint8_t)b), v5 = f8_decode(TY_F8E5M2, (uint8_t)b);
		if (!isnan(v4) && f8_encode(TY_F8E4M3, v4) != b)
			fail_msg("e4m3 0x%02x reads %g, which encodes 0x%02x", b, v4,
				 f8_encode(TY_F8E4M3, v4));
		if (!isnan(v5) && !isinf(v5) && f8_encode(TY_F8E5M2, v5) != b)
			fail_msg("e5m2 0x%02x reads %g, which encodes 0x%02x", b, v5,
				 f8_encode(TY_F8E5M2, v5));
	}
	assert_int_equal(type_size(TY_F8E4M3), 1);
	assert_true(type_is_float(TY_F8E5M2) && !type_is_int(TY_F8E5M2));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_size_helpers), cmocka_unit_test(test_shape_parse),
	    cmocka_unit_test(test_shape_check),	 cmocka_unit_test(test_verify_limits),
	    cmocka_unit_test(test_f8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
