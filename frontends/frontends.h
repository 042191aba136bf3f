/* Frontends: the .rk text parser and the JSON form of the same IR. */
#ifndef RKC_FRONTENDS_H
#define RKC_FRONTENDS_H

#include "analysis/ir.h"

/* Parse .rk text; file names the source in diagnostics. Returns NULL with d set on error.
 * The kernel is verified (kernel_verify) before it is returned. */
Kernel *parse_rk(const char *file, const char *src, Diag *d);
/* Read the JSON form (docs/ir.md); verified likewise. */
Kernel *parse_json(const char *file, const char *src, Diag *d);
/* Either form, by content: JSON when the first non-blank character is '{'. */
Kernel *parse_kernel(const char *file, const char *src, Diag *d);
/* Read a whole file ("-" is stdin) into a NUL-terminated malloc'd string; NULL with d set. */
char *read_file(const char *path, size_t *len, Diag *d);
/* The JSON form, deterministic: fixed key order, two-space indent, trailing newline. */
void kernel_print_json(Buf *b, const Kernel *k);

#endif
