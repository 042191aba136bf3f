/* Helpers the cmocka tests share: read and parse kernels, failing the test with the diagnostic;
 * the built-in kernels' names (tests/kernels.h). */
#ifndef RKC_TESTUTIL_H
#define RKC_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "frontends/frontends.h"
#include "tests/kernels.h"

static inline char *
slurp_file(const char *path)
{
	Diag d = {0};
	char *s = read_file(path, NULL, &d);
	if (!s)
		fail_msg("%s", d.msg);
	return s;
}

static inline Kernel *
parse_text(const char *file, const char *src)
{
	Diag d = {0};
	Kernel *k = parse_kernel(file, src, &d);
	if (!k)
		fail_msg("%s", d.msg);
	return k;
}

static inline Kernel *
load_kernel_file(const char *path)
{
	char *src = slurp_file(path);
	Kernel *k = parse_text(path, src);
	free(src);
	return k;
}

/* testdata/kernels/NAME.rk */
static inline Kernel *
load_kernel(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "testdata/kernels/%s.rk", name);
	return load_kernel_file(path);
}

#endif
