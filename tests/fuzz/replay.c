/* Runs a fuzz target over the files given (its corpus and reproducers), as make test does. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 1;
		}
		static uint8_t buf[1 << 20];
		size_t n = fread(buf, 1, sizeof buf, f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
	}
	printf("%d inputs replayed\n", argc - 1);
	return 0;
}
