/* The .rk text parser: one declaration or statement per line (docs/ir.md). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/frontends.h"

typedef enum { TK_WORD, TK_PUNCT, TK_NL, TK_EOF } TokKind;

typedef struct {
	TokKind kind;
	char text[128];
	Loc loc;
} Tok;

typedef struct {
	const char *src, *p;
	int line;
	const char *bol; /* beginning of the current line */
	Tok tok;	 /* the current token */
	Builder b;
	Diag *d;
} Parser;

static int
is_word_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '%' || c == '+' || c == '-';
}

/* Reads the next token into p->tok. Words take names, %values, numbers and cast.TYPE alike;
 * the grammar sorts them out. Returns -1 on a lexical error. */
static int
next(Parser *p)
{
	for (;;) {
		while (*p->p == ' ' || *p->p == '\t' || *p->p == '\r')
			p->p++;
		if (*p->p == '#')
			while (*p->p && *p->p != '\n')
				p->p++;
		else
			break;
	}
	Tok *t = &p->tok;
	t->loc = (Loc){p->line, (int)(p->p - p->bol) + 1};
	char c = *p->p;
	if (c == '\0') {
		t->kind = TK_EOF;
		strcpy(t->text, "end of file");
		return 0;
	}
	if (c == '\n') {
		t->kind = TK_NL;
		strcpy(t->text, "end of line");
		p->p++;
		p->line++;
		p->bol = p->p;
		return 0;
	}
	if (strchr(":,=[]", c)) {
		t->kind = TK_PUNCT;
		t->text[0] = c;
		t->text[1] = '\0';
		p->p++;
		return 0;
	}
	if (is_word_char((unsigned char)c)) {
		const char *s = p->p;
		while (is_word_char((unsigned char)*p->p)) {
			/* a sign inside a word only follows an exponent: 1e-6 */
			if ((*p->p == '-' || *p->p == '+') && p->p > s &&
			    !(tolower((unsigned char)p->p[-1]) == 'e' &&
			      isdigit((unsigned char)s[s[0] == '-' || s[0] == '+'])))
				break;
			p->p++;
		}
		size_t n = (size_t)(p->p - s);
		if (n >= sizeof t->text)
			return diag_at(p->d, p->b.file, t->loc, "token too long (%zu characters)",
				       n);
		t->kind = TK_WORD;
		memcpy(t->text, s, n);
		t->text[n] = '\0';
		return 0;
	}
	if (isprint((unsigned char)c))
		return diag_at(p->d, p->b.file, t->loc, "unexpected character '%c'", c);
	return diag_at(p->d, p->b.file, t->loc, "unexpected byte 0x%02x", (unsigned char)c);
}

static int
expect_punct(Parser *p, char c, const char *what)
{
	if (p->tok.kind != TK_PUNCT || p->tok.text[0] != c)
		return diag_at(p->d, p->b.file, p->tok.loc, "expected '%c' %s, got '%s'", c, what,
			       p->tok.text);
	return next(p);
}

static int
expect_eol(Parser *p)
{
	if (p->tok.kind != TK_NL && p->tok.kind != TK_EOF)
		return diag_at(p->d, p->b.file, p->tok.loc, "expected end of line, got '%s'",
			       p->tok.text);
	return p->tok.kind == TK_NL ? next(p) : 0;
}

static int
is_word(Parser *p, const char *w)
{
	return p->tok.kind == TK_WORD && !strcmp(p->tok.text, w);
}

/* '[M,N]' | '[M]' | '[N]' */
static int
parse_shape(Parser *p, Shape *sh)
{
	Loc loc = p->tok.loc;
	if (expect_punct(p, '[', "to open a shape") < 0)
		return -1;
	int m = 0, n = 0;
	if (is_word(p, "M")) {
		m = 1;
		if (next(p) < 0)
			return -1;
		if (p->tok.kind == TK_PUNCT && p->tok.text[0] == ',') {
			if (next(p) < 0)
				return -1;
			if (!is_word(p, "N"))
				return diag_at(p->d, p->b.file, p->tok.loc,
					       "expected 'N' after 'M,', got '%s'", p->tok.text);
			n = 1;
			if (next(p) < 0)
				return -1;
		}
	} else if (is_word(p, "N")) {
		n = 1;
		if (next(p) < 0)
			return -1;
	} else {
		return diag_at(p->d, p->b.file, p->tok.loc,
			       "expected a shape [M,N], [M] or [N], got '%s'", p->tok.text);
	}
	if (expect_punct(p, ']', "to close the shape") < 0)
		return -1;
	(void)loc;
	*sh = m && n ? SH_TILE : m ? SH_ROW : SH_VEC;
	return 0;
}

/* in NAME ':' type shape | out NAME ':' type shape | param NAME '=' NUMBER */
static int
parse_decl(Parser *p)
{
	ParamKind kind = is_word(p, "in") ? P_IN : is_word(p, "out") ? P_OUT : P_PARAM;
	if (next(p) < 0)
		return -1;
	if (p->tok.kind != TK_WORD)
		return diag_at(p->d, p->b.file, p->tok.loc, "expected a parameter name, got '%s'",
			       p->tok.text);
	char name[128];
	Loc nloc = p->tok.loc;
	strcpy(name, p->tok.text);
	if (next(p) < 0)
		return -1;
	if (kind == P_PARAM) {
		if (expect_punct(p, '=', "and a default value after the param name") < 0)
			return -1;
		/* a default is a number as an operand is one (docs/ir.md), inf and -inf included */
		Tok num = p->tok;
		double v;
		if (num.kind != TK_WORD || kb_number(num.text, &v) < 0)
			return diag_at(p->d, p->b.file, num.loc, "expected a number, got '%s'",
				       num.text);
		if (next(p) < 0 || kb_param(&p->b, name, P_PARAM, TY_F32, SH_SCALAR, v, nloc) < 0)
			return -1;
		return expect_eol(p);
	}
	if (expect_punct(p, ':', "and a type after the parameter name") < 0)
		return -1;
	Type ty;
	if (p->tok.kind != TK_WORD || type_parse(p->tok.text, &ty) < 0)
		return diag_at(p->d, p->b.file, p->tok.loc,
			       "expected a type (T, f32, bf16, f16, f8e4m3, f8e5m2, i64, i32, i8, "
			       "bool), got '%s'",
			       p->tok.text);
	if (next(p) < 0)
		return -1;
	Shape sh = SH_SCALAR;
	if (parse_shape(p, &sh) < 0)
		return -1;
	if (kb_param(&p->b, name, kind, ty, sh, 0, nloc) < 0)
		return -1;
	return expect_eol(p);
}

/* Operands: a comma-separated list up to the end of the line. */
/* What may follow '=': every op_info name once (max and min name two ops), store and the bare
 * cast left out, so the list grows with the IR and is never written out twice. */
static const char *
op_list(char *buf, size_t n)
{
	size_t at = 0;
	buf[0] = 0;
	for (int i = 0; i < OP_COUNT && at < n; i++) {
		Op op;
		if (i != OP_STORE && i != OP_CAST && op_parse(op_info[i].name, &op) == 0 &&
		    (int)op == i)
			at += snprintf(buf + at, n - at, "%s, ", op_info[i].name);
	}
	if (at < n)
		snprintf(buf + at, n - at, "cast.TYPE");
	return buf;
}

static int
parse_operands(Parser *p, Instr *in, int first_is_param)
{
	for (int i = 0;; i++) {
		if (p->tok.kind != TK_WORD)
			return diag_at(p->d, p->b.file, p->tok.loc,
				       i ? "expected an operand after ',', got '%s'"
					 : "expected an operand, got '%s'",
				       p->tok.text);
		if (i == 0 && first_is_param) {
			if (kb_param_ref(&p->b, in, p->tok.text, p->tok.loc) < 0)
				return -1;
		} else if (kb_operand(&p->b, in, p->tok.text, p->tok.loc) < 0) {
			return -1;
		}
		if (next(p) < 0)
			return -1;
		if (p->tok.kind == TK_NL || p->tok.kind == TK_EOF)
			return 0;
		if (expect_punct(p, ',', "between operands") < 0)
			return -1;
	}
}

/* The operand count an op takes, with the param counted for load/gather/store. */
static int
operand_count(Op op)
{
	switch (op) {
	case OP_LOAD:
		return 1;
	case OP_GATHER:
	case OP_STORE:
		return 2;
	default:
		return op_info[op].nargs;
	}
}

static int
check_arity(Parser *p, Instr *in, const char *opname, Loc oploc)
{
	int got = in->nargs + (in->param >= 0);
	int want = operand_count(in->op);
	if (got != want)
		return diag_at(p->d, p->b.file, oploc, "'%s' takes %d operand%s, got %d", opname,
			       want, want == 1 ? "" : "s", got);
	return 0;
}

/* results '=' op operands | 'store' NAME ',' operand */
static int
parse_stmt(Parser *p)
{
	Loc sloc = p->tok.loc;
	if (is_word(p, "store")) {
		Instr *in = kb_instr(&p->b, OP_STORE, sloc);
		if (!in || next(p) < 0 || parse_operands(p, in, 1) < 0)
			return -1;
		if (check_arity(p, in, "store", sloc) < 0)
			return -1;
		return expect_eol(p);
	}
	Tok res[MAX_RES + 1];
	int nres = 0;
	for (;;) {
		if (p->tok.kind != TK_WORD || (p->tok.text[0] != '%' && strcmp(p->tok.text, "_")))
			return diag_at(
			    p->d, p->b.file, p->tok.loc,
			    nres ? "expected a result %%name or _, got '%s'"
				 : "expected a declaration, a %%result or 'store', got '%s'",
			    p->tok.text);
		if (nres == MAX_RES)
			return diag_at(p->d, p->b.file, p->tok.loc, "too many results (at most %d)",
				       MAX_RES);
		res[nres++] = p->tok;
		if (next(p) < 0)
			return -1;
		if (p->tok.kind == TK_PUNCT && p->tok.text[0] == ',') {
			if (next(p) < 0)
				return -1;
			continue;
		}
		break;
	}
	if (expect_punct(p, '=', "after the results") < 0)
		return -1;
	if (p->tok.kind != TK_WORD)
		return diag_at(p->d, p->b.file, p->tok.loc, "expected an operation, got '%s'",
			       p->tok.text);
	Tok optok = p->tok;
	Op op;
	Type to = TY_F32;
	if (!strncmp(optok.text, "cast.", 5)) {
		op = OP_CAST;
		if (type_parse(optok.text + 5, &to) < 0 || to == TY_T)
			return diag_at(
			    p->d, p->b.file, optok.loc,
			    "unknown cast type '%s' (f32, bf16, f16, f8e4m3, f8e5m2, i64, i32, i8, "
			    "bool)",
			    optok.text + 5);
	} else if (!strcmp(optok.text, "store")) {
		return diag_at(p->d, p->b.file, optok.loc, "'store' has no result");
	} else if (!strcmp(optok.text, "cast")) {
		return diag_at(p->d, p->b.file, optok.loc,
			       "'cast' needs a type: cast.f32, cast.i8, ...");
	} else if (op_parse(optok.text, &op) < 0) {
		char ops[512];
		return diag_at(p->d, p->b.file, optok.loc, "unknown operation '%s' (expected %s)",
			       optok.text, op_list(ops, sizeof ops));
	}
	Instr *in = kb_instr(&p->b, op, sloc);
	if (!in)
		return -1;
	in->to = to;
	if (next(p) < 0)
		return -1;
	int eol = p->tok.kind == TK_NL || p->tok.kind == TK_EOF;
	if (eol && op_info[op].nargs != 0)
		return diag_at(p->d, p->b.file, p->tok.loc, "expected an operand for '%s'",
			       optok.text);
	if (!eol && parse_operands(p, in, op == OP_LOAD || op == OP_GATHER) < 0)
		return -1;
	/* max and min with one operand are the reductions */
	if (in->nargs == 1 && (op == OP_MAX || op == OP_MIN))
		in->op = op == OP_MAX ? OP_RMAX : OP_RMIN;
	if (check_arity(p, in, optok.text, optok.loc) < 0)
		return -1;
	int want = in->op == OP_WELFORD ? 3 : 1;
	if (nres != want)
		return diag_at(p->d, p->b.file, res[0].loc, "'%s' gives %d result%s, got %d",
			       optok.text, want, want == 1 ? "" : "s", nres);
	for (int i = 0; i < nres; i++)
		if (kb_result(&p->b, in, res[i].text, res[i].loc) < 0)
			return -1;
	return expect_eol(p);
}

/* Comment lines before 'kernel' become the kernel's doc. */
static char *
leading_doc(const char *src)
{
	Buf doc = {0};
	int nlines = 0;
	const char *s = src;
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (*s == '\n') {
			s++;
			continue;
		}
		if (*s != '#')
			break;
		s++;
		if (*s == ' ')
			s++;
		const char *e = s;
		while (*e && *e != '\n')
			e++;
		const char *t = e;
		while (t > s && (t[-1] == ' ' || t[-1] == '\t' || t[-1] == '\r'))
			t--;
		if (nlines++)
			buf_puts(&doc, "\n");
		buf_printf(&doc, "%.*s", (int)(t - s), s);
		s = *e ? e + 1 : e;
	}
	return doc.s;
}

static Kernel *
fail(Parser *p)
{
	kb_abort(&p->b);
	return NULL;
}

Kernel *
parse_rk(const char *file, const char *src, Diag *d)
{
	Parser p = {.src = src, .p = src, .line = 1, .bol = src, .d = d};
	kb_init(&p.b, file, d);
	char *doc = leading_doc(src);
	kb_doc(&p.b, doc);
	free(doc);
	if (next(&p) < 0)
		return fail(&p);
	while (p.tok.kind == TK_NL)
		if (next(&p) < 0)
			return fail(&p);
	if (!is_word(&p, "kernel"))
		return diag_at(d, file, p.tok.loc, "expected 'kernel NAME', got '%s'", p.tok.text),
		       fail(&p);
	if (next(&p) < 0)
		return fail(&p);
	if (p.tok.kind != TK_WORD)
		return diag_at(d, file, p.tok.loc, "expected a kernel name, got '%s'", p.tok.text),
		       fail(&p);
	if (kb_name(&p.b, p.tok.text, p.tok.loc) < 0 || next(&p) < 0 || expect_eol(&p) < 0)
		return fail(&p);
	int in_body = 0;
	while (p.tok.kind != TK_EOF) {
		if (p.tok.kind == TK_NL) {
			if (next(&p) < 0)
				return fail(&p);
			continue;
		}
		if (is_word(&p, "in") || is_word(&p, "out") || is_word(&p, "param")) {
			if (in_body)
				return diag_at(d, file, p.tok.loc,
					       "declarations must come before the statements"),
				       fail(&p);
			if (parse_decl(&p) < 0)
				return fail(&p);
			continue;
		}
		if (is_word(&p, "kernel"))
			return diag_at(d, file, p.tok.loc, "one kernel per file"), fail(&p);
		in_body = 1;
		if (parse_stmt(&p) < 0)
			return fail(&p);
	}
	if (p.b.k->nins == 0)
		return diag_at(d, file, p.tok.loc, "expected statements: the kernel has no body"),
		       fail(&p);
	return kb_finish(&p.b);
}

Kernel *
parse_kernel(const char *file, const char *src, Diag *d)
{
	/* editors on Windows start UTF-8 files with a byte order mark; it is no part of the text */
	if (!strncmp(src, "\xef\xbb\xbf", 3))
		src += 3;
	const char *s = src;
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(file);
	int json = *s == '{' || *s == '[' || (n > 5 && !strcmp(file + n - 5, ".json"));
	return json ? parse_json(file, src, d) : parse_rk(file, src, d);
}

/* The most read_file takes: far more than any kernel or data file, and a stop for endless input
 * such as /dev/zero before it takes all of memory. */
#define MAX_INPUT_MIB 64

char *
read_file(const char *path, size_t *len, Diag *d)
{
	int is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	if (!f) {
		diag(d, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	size_t cap = 4096, n = 0;
	char *s = malloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			char *t = realloc(s, cap);
			if (!t) {
				free(s);
				if (!is_stdin)
					fclose(f);
				diag(d, "'%s' is too large", path);
				return NULL;
			}
			s = t;
		}
		size_t got = fread(s + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
		if (n > (size_t)MAX_INPUT_MIB << 20) {
			free(s);
			if (!is_stdin)
				fclose(f);
			diag(d, "'%s' is over %d MiB, the most rkc reads", path, MAX_INPUT_MIB);
			return NULL;
		}
	}
	int err = ferror(f);
	if (!is_stdin)
		fclose(f);
	if (err) {
		free(s);
		diag(d, "cannot read '%s'", path);
		return NULL;
	}
	s[n] = '\0';
	if (strlen(s) != n) {
		free(s);
		diag(d, "'%s' contains a NUL byte", path);
		return NULL;
	}
	if (len)
		*len = n;
	return s;
}
