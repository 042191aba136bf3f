/* The built-in kernels' names, read from testdata/kernels/NAME.rk, so a kernel added there is
 * covered by every test that walks the list. Plain C (no cmocka), for the test programs too. */
#ifndef RKC_TESTS_KERNELS_H
#define RKC_TESTS_KERNELS_H

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static inline int
kernel_names_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the .rk files in dir, sorted; NULL-terminated. *n gets the count. NULL, with
 * *n = 0, when the folder cannot be read. Free with kernel_names_free. */
static inline char **
kernel_names_in(const char *dirname, int *n)
{
	*n = 0;
	DIR *dir = opendir(dirname);
	if (!dir)
		return NULL;
	int cap = 32;
	char **v = malloc(sizeof(char *) * (size_t)(cap + 1));
	struct dirent *e;
	while (v && (e = readdir(dir))) {
		size_t len = strlen(e->d_name);
		if (len <= 3 || strcmp(e->d_name + len - 3, ".rk"))
			continue;
		if (*n == cap) {
			cap *= 2;
			char **w = realloc(v, sizeof(char *) * (size_t)(cap + 1));
			if (!w)
				break;
			v = w;
		}
		v[*n] = strndup(e->d_name, len - 3);
		if (v[*n])
			++*n;
	}
	closedir(dir);
	if (!v)
		return NULL;
	qsort(v, (size_t)*n, sizeof *v, kernel_names_cmp);
	v[*n] = NULL;
	return v;
}

/* The names in testdata/kernels (run from the source root). */
static inline char **
kernel_names(int *n)
{
	return kernel_names_in("testdata/kernels", n);
}

static inline void
kernel_names_free(char **v)
{
	for (char **p = v; p && *p; p++)
		free(*p);
	free(v);
}

#endif
