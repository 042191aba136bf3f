/* libFuzzer target: any bytes through both readers, the verifier and the printers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/frontends.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *src = malloc(size + 1);
	memcpy(src, data, size);
	src[size] = '\0';
	Diag d = {0};
	Kernel *k = parse_kernel("fuzz.rk", src, &d);
	if (k) {
		/* a kernel that parses must print to text that parses to the same text */
		Buf a = {0}, b = {0}, j = {0};
		kernel_print(&a, k);
		kernel_print_json(&j, k);
		Kernel *k2 = parse_rk("again.rk", a.s, &d);
		if (!k2)
			abort();
		kernel_print(&b, k2);
		if (strcmp(a.s, b.s) != 0)
			abort();
		Kernel *k3 = parse_json("again.json", j.s, &d);
		if (!k3)
			abort();
		kernel_free(k3);
		kernel_free(k2);
		buf_free(&a);
		buf_free(&b);
		buf_free(&j);
		kernel_free(k);
	}
	free(src);
	return 0;
}
