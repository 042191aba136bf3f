/* Frontends: the .rk text parser and the JSON form of the same IR. */
#ifndef RKC_FRONTENDS_H
#define RKC_FRONTENDS_H

#include "analysis/ir.h"

/* Parse .rk text; file names the source in diagnostics. Returns NULL with d set on error.
 * The kernel is verified (kernel_verify) before it is returned. */
Kernel *parse_rk(const char *file, const char *src, Diag *d);
/* Read the JSON form (docs/ir.md); verified likewise. */
Kernel *parse_json(const char *file, const char *src, Diag *d);
/* Either form: JSON when the first non-blank character is '{' or '[' or the file is a .json;
 * a leading UTF-8 byte order mark is skipped. */
Kernel *parse_kernel(const char *file, const char *src, Diag *d);
/* Read a whole file ("-" is stdin) into a NUL-terminated malloc'd string; NULL with d set.
 * Refuses more than 64 MiB. */
char *read_file(const char *path, size_t *len, Diag *d);
/* The JSON form, deterministic: fixed key order, two-space indent, trailing newline. */
void kernel_print_json(Buf *b, const Kernel *k);

/* The kernel builder both readers share: names are resolved and checked as they come. */
typedef struct {
	Kernel *k;
	const char *file;
	Diag *d;
	int capp, capv, capi;
	Param *params; /* malloc'd while building, copied into the arena by kb_finish */
	Value *vals;
	Instr *ins;
} Builder;

void kb_init(Builder *b, const char *file, Diag *d);
void kb_abort(Builder *b); /* frees everything after an error */
int kb_name(Builder *b, const char *name, Loc loc);
int kb_doc(Builder *b, const char *doc);
int kb_param(Builder *b, const char *name, ParamKind kind, Type type, Shape shape, double def,
	     Loc loc);
Instr *kb_instr(Builder *b, Op op, Loc loc); /* NULL with d set past MAX_INSTRS */
/* The param an instruction names first (load x, gather x, store y). */
int kb_param_ref(Builder *b, Instr *in, const char *name, Loc loc);
/* A number in text syntax (docs/ir.md): decimal or exponent form, inf, -inf; 0 on success. */
int kb_number(const char *tok, double *out);
/* An operand in text syntax: "%v", a scalar param, a number, "inf", or "N". */
int kb_operand(Builder *b, Instr *in, const char *tok, Loc loc);
/* A result "%v" or "_"; call after the operands, so "%x = add %x, 1" is a use before def. */
int kb_result(Builder *b, Instr *in, const char *tok, Loc loc);
/* Verifies and returns the kernel, or NULL with d set. */
Kernel *kb_finish(Builder *b);

#endif
