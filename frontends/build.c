/* Kernel builder: the name resolution that the .rk parser and the JSON reader share. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/frontends.h"

static void *
grow(void *p, int *cap, int n, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	p = realloc(p, (size_t)*cap * size);
	if (!p) {
		fputs("rkc: out of memory\n", stderr);
		abort();
	}
	return p;
}

void
kb_init(Builder *b, const char *file, Diag *d)
{
	*b = (Builder){0};
	Arena *a = arena_new();
	b->k = arena_alloc(a, sizeof *b->k);
	b->k->arena = a;
	b->k->file = arena_strdup(a, file);
	b->file = b->k->file;
	b->d = d;
}

static void
kb_release(Builder *b)
{
	free(b->params);
	free(b->vals);
	free(b->ins);
	b->params = NULL;
	b->vals = NULL;
	b->ins = NULL;
}

void
kb_abort(Builder *b)
{
	kb_release(b);
	if (b->k)
		kernel_free(b->k);
	b->k = NULL;
}

/* Names fit the .rk lexer's token, so a kernel read from JSON always prints as parseable text. */
#define MAX_NAME 100

static int
is_name(const char *s)
{
	if (strlen(s) > MAX_NAME)
		return 0;
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (s++; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

static int
is_reserved(const char *s)
{
	return !strcmp(s, "M") || !strcmp(s, "N") || !strcmp(s, "T") || !strcmp(s, "inf") ||
	       !strcmp(s, "_");
}

int
kb_name(Builder *b, const char *name, Loc loc)
{
	if (!is_name(name))
		return diag_at(
		    b->d, b->file, loc,
		    "expected a kernel name (a letter or _, then letters, digits, _; at most "
		    "%d), got '%.40s'",
		    MAX_NAME, name);
	b->k->name = arena_strdup(b->k->arena, name);
	return 0;
}

/* The doc as the printer will write it: control characters become spaces and each line loses
 * its trailing blanks, so doc text from either reader prints and parses back unchanged. */
int
kb_doc(Builder *b, const char *doc)
{
	if (!doc) {
		b->k->doc = NULL;
		return 0;
	}
	char *s = arena_strdup(b->k->arena, doc), *w = s;
	for (const char *r = s; *r; r++) {
		char c = (unsigned char)*r < 0x20 && *r != '\n' ? ' ' : *r;
		if (c == '\n')
			while (w > s && w[-1] == ' ')
				w--;
		*w++ = c;
	}
	while (w > s && w[-1] == ' ')
		w--;
	*w = '\0';
	b->k->doc = s;
	return 0;
}

int
kb_param(Builder *b, const char *name, ParamKind kind, Type type, Shape shape, double def, Loc loc)
{
	Kernel *k = b->k;
	if (!is_name(name))
		return diag_at(
		    b->d, b->file, loc,
		    "expected a parameter name (a letter or _, then letters, digits, _; at "
		    "most %d), got '%.40s'",
		    MAX_NAME, name);
	if (is_reserved(name))
		return diag_at(b->d, b->file, loc, "'%s' is reserved and cannot name a parameter",
			       name);
	for (int i = 0; i < k->nparams; i++)
		if (!strcmp(b->params[i].name, name))
			return diag_at(b->d, b->file, loc, "redefinition of parameter '%s'", name);
	if (kind == P_PARAM && (type != TY_F32 || shape != SH_SCALAR))
		return diag_at(b->d, b->file, loc, "a param is an f32 scalar");
	if (kind != P_PARAM && shape == SH_SCALAR)
		return diag_at(b->d, b->file, loc, "expected a shape [M,N], [M] or [N]");
	if (kernel_limits(b->file, loc, k->nparams + 1, k->nins, b->d))
		return -1;
	b->params = grow(b->params, &b->capp, k->nparams, sizeof *b->params);
	b->params[k->nparams++] =
	    (Param){arena_strdup(k->arena, name), kind, type, shape, def, loc};
	return 0;
}

Instr *
kb_instr(Builder *b, Op op, Loc loc)
{
	Kernel *k = b->k;
	if (kernel_limits(b->file, loc, k->nparams, k->nins + 1, b->d))
		return NULL;
	b->ins = grow(b->ins, &b->capi, k->nins, sizeof *b->ins);
	Instr *in = &b->ins[k->nins++];
	*in = (Instr){.op = op, .param = -1, .to = TY_F32, .loc = loc};
	return in;
}

static int
find_value(Builder *b, const char *name)
{
	for (int i = b->k->nvals - 1; i >= 0; i--)
		if (!strcmp(b->vals[i].name, name))
			return i;
	return -1;
}

static int
find_param(Builder *b, const char *name)
{
	for (int i = 0; i < b->k->nparams; i++)
		if (!strcmp(b->params[i].name, name))
			return i;
	return -1;
}

int
kb_param_ref(Builder *b, Instr *in, const char *name, Loc loc)
{
	int p = find_param(b, name);
	if (p < 0)
		return diag_at(b->d, b->file, loc, "unknown parameter '%s'", name);
	in->param = p;
	return 0;
}

int
kb_number(const char *tok, double *out)
{
	const char *s = tok;
	if (*s == '-' || *s == '+')
		s++;
	if (!strcmp(s, "inf")) {
		*out = tok[0] == '-' ? -INFINITY : INFINITY;
		return 0;
	}
	if (!isdigit((unsigned char)*s) && !(*s == '.' && isdigit((unsigned char)s[1])))
		return -1;
	char *end;
	errno = 0;
	double v = strtod(tok, &end);
	if (*end || errno == ERANGE)
		return -1;
	*out = v;
	return 0;
}

int
kb_operand(Builder *b, Instr *in, const char *tok, Loc loc)
{
	if (in->nargs == MAX_ARGS)
		return diag_at(b->d, b->file, loc, "too many operands for '%s'",
			       op_info[in->op].name);
	Arg a = {.loc = loc};
	if (tok[0] == '%') {
		a.kind = ARG_VAL;
		a.idx = find_value(b, tok + 1);
		if (a.idx < 0)
			return diag_at(b->d, b->file, loc, "unknown value '%s'", tok);
	} else if (!strcmp(tok, "N")) {
		a.kind = ARG_N;
	} else if (kb_number(tok, &a.imm) == 0) {
		a.kind = ARG_IMM;
	} else if (isdigit((unsigned char)tok[tok[0] == '-' || tok[0] == '+'])) {
		return diag_at(b->d, b->file, loc, "bad number '%s'", tok);
	} else if (is_name(tok)) {
		int p = find_param(b, tok);
		if (p < 0)
			return diag_at(b->d, b->file, loc, "unknown name '%s'", tok);
		if (b->params[p].kind != P_PARAM)
			return diag_at(b->d, b->file, loc,
				       "'%s' is an array: load it into a value first", tok);
		a.kind = ARG_PARAM;
		a.idx = p;
	} else {
		return diag_at(b->d, b->file, loc,
			       "expected an operand (%%value, param, number or N), got '%s'", tok);
	}
	in->args[in->nargs++] = a;
	return 0;
}

int
kb_result(Builder *b, Instr *in, const char *tok, Loc loc)
{
	Kernel *k = b->k;
	if (in->nres == MAX_RES)
		return diag_at(b->d, b->file, loc, "too many results");
	if (!strcmp(tok, "_")) {
		in->res[in->nres++] = -1;
		return 0;
	}
	if (tok[0] != '%' || !tok[1])
		return diag_at(b->d, b->file, loc, "expected a result %%name or _, got '%s'", tok);
	if (strlen(tok + 1) > MAX_NAME)
		return diag_at(b->d, b->file, loc, "value name longer than %d characters",
			       MAX_NAME);
	for (const char *s = tok + 1; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return diag_at(b->d, b->file, loc, "bad character in value name '%s'", tok);
	if (find_value(b, tok + 1) >= 0)
		return diag_at(b->d, b->file, loc, "redefinition of '%s'", tok);
	b->vals = grow(b->vals, &b->capv, k->nvals, sizeof *b->vals);
	b->vals[k->nvals] =
	    (Value){arena_strdup(k->arena, tok + 1), TY_F32, SH_SCALAR, (int)(in - b->ins)};
	in->res[in->nres++] = k->nvals++;
	return 0;
}

static void *
copy_out(Arena *a, const void *p, int n, size_t size)
{
	if (n == 0)
		return NULL;
	void *q = arena_alloc(a, (size_t)n * size);
	memcpy(q, p, (size_t)n * size);
	return q;
}

Kernel *
kb_finish(Builder *b)
{
	Kernel *k = b->k;
	if (!k->name) {
		diag_at(b->d, b->file, (Loc){0}, "expected 'kernel NAME'");
		kb_abort(b);
		return NULL;
	}
	k->params = copy_out(k->arena, b->params, k->nparams, sizeof *b->params);
	k->vals = copy_out(k->arena, b->vals, k->nvals, sizeof *b->vals);
	k->ins = copy_out(k->arena, b->ins, k->nins, sizeof *b->ins);
	kb_release(b);
	if (kernel_verify(k, b->d) < 0) {
		kernel_free(k);
		b->k = NULL;
		return NULL;
	}
	b->k = NULL;
	return k;
}
