/* Unit tests of the frontends through the library API: parse, verify, print, JSON. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/frontends.h"

static const char *softmax_src = "# softmax\n"
				 "kernel softmax\n"
				 "in x: T[M,N]\n"
				 "out y: T[M,N]\n"
				 "%x = load x\n"
				 "%m = max %x\n"
				 "%d = sub %x, %m\n"
				 "%e = exp %d\n"
				 "%s = sum %e\n"
				 "%y = div %e, %s\n"
				 "store y, %y\n";

static void
test_types_and_shapes(void **state)
{
	Diag d = {0};
	Kernel *k = parse_rk("s.rk", softmax_src, &d);
	assert_non_null(k);
	assert_string_equal(k->name, "softmax");
	assert_string_equal(k->doc, "softmax");
	assert_int_equal(k->nparams, 2);
	assert_int_equal(k->nins, 7);
	/* max with one operand is the reduction; its result is a row scalar */
	assert_int_equal(k->ins[1].op, OP_RMAX);
	assert_int_equal(k->vals[1].shape, SH_ROW);
	assert_int_equal(k->vals[1].type, TY_F32);
	/* [M,N] - [M] broadcasts to [M,N] */
	assert_int_equal(k->vals[2].shape, SH_TILE);
	assert_int_equal(k->vals[0].type, TY_T);
	kernel_free(k);
}

static void
test_broadcast_outer(void **state)
{
	const char *src = "kernel k\nin a: T[M]\nin b: T[N]\nout s: f32[M]\n"
			  "%a = load a\n%b = load b\n%p = mul %a, %b\n%s = sum %p\nstore s, %s\n";
	Diag d = {0};
	Kernel *k = parse_rk("k.rk", src, &d);
	assert_non_null(k);
	assert_int_equal(k->vals[2].shape, SH_TILE);
	kernel_free(k);
}

static void
test_json_equals_text(void **state)
{
	Diag d = {0};
	Kernel *k = parse_rk("s.rk", softmax_src, &d);
	assert_non_null(k);
	Buf js = {0}, t1 = {0}, t2 = {0};
	kernel_print_json(&js, k);
	kernel_print(&t1, k);
	Kernel *k2 = parse_kernel("s.json", js.s, &d);
	assert_non_null(k2);
	kernel_print(&t2, k2);
	assert_string_equal(t1.s, t2.s);
	buf_free(&js);
	buf_free(&t1);
	buf_free(&t2);
	kernel_free(k);
	kernel_free(k2);
}

static void
test_diagnostic_format(void **state)
{
	Diag d = {0};
	Kernel *k = parse_rk("bad.rk", "kernel k\nin x: T[M,N]\n%y = exp %z\n", &d);
	assert_null(k);
	assert_string_equal(d.msg, "bad.rk:3:10: error: unknown value '%z'");
}

static void
test_numbers(void **state)
{
	const double v[] = {1e-6, 0.1, -1e4, 127, 1.0 / 3, 5e-324, 1.7976931348623157e308};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		Buf b = {0};
		buf_double(&b, v[i]);
		assert_true(strtod(b.s, NULL) == v[i]);
		buf_free(&b);
	}
	Buf b = {0};
	buf_double(&b, 1e-6);
	buf_double(&b, -INFINITY);
	assert_string_equal(b.s, "1e-06-inf");
	buf_free(&b);
}

static void
test_inf_literal_and_param(void **state)
{
	const char *src = "kernel k\nin x: T[M,N]\nout y: T[M,N]\nparam lo = -inf\n"
			  "%x = load x\n%y = max %x, lo\n%z = min %y, inf\nstore y, %z\n";
	Diag d = {0};
	Kernel *k = parse_rk("k.rk", src, &d);
	assert_non_null(k);
	assert_true(isinf(k->params[2].def) && k->params[2].def < 0);
	assert_int_equal(k->ins[1].op, OP_MAX);
	assert_int_equal(k->ins[1].args[1].kind, ARG_PARAM);
	assert_int_equal(k->ins[2].args[1].kind, ARG_IMM);
	kernel_free(k);
}

static void
test_every_error_is_reported_once(void **state)
{
	/* Truncations of a valid kernel never crash and either parse or give one diagnostic. */
	size_t n = strlen(softmax_src);
	for (size_t i = 0; i < n; i++) {
		char *s = strndup(softmax_src, i);
		Diag d = {0};
		Kernel *k = parse_rk("t.rk", s, &d);
		if (k)
			kernel_free(k);
		else
			assert_true(d.set && strstr(d.msg, "t.rk:") == d.msg);
		free(s);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_types_and_shapes),
	    cmocka_unit_test(test_broadcast_outer),
	    cmocka_unit_test(test_json_equals_text),
	    cmocka_unit_test(test_diagnostic_format),
	    cmocka_unit_test(test_numbers),
	    cmocka_unit_test(test_inf_literal_and_param),
	    cmocka_unit_test(test_every_error_is_reported_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
