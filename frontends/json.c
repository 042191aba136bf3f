/* The JSON form of the IR: a reader through the shared builder, and a deterministic writer. */
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "frontends/frontends.h"

static const char *kind_names[] = {"in", "out", "param"};

static int
jerr(Builder *b, const char *where, const char *what)
{
	return diag_at(b->d, b->file, (Loc){0}, "%s: %s", where, what);
}

static const char *
jstr(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

static int
read_param(Builder *b, json_t *jp, int i)
{
	char where[64];
	snprintf(where, sizeof where, "params[%d]", i);
	if (!json_is_object(jp))
		return jerr(b, where, "expected an object");
	const char *name = jstr(jp, "name"), *kind = jstr(jp, "kind");
	const char *type = jstr(jp, "type"), *shape = jstr(jp, "shape");
	if (!name || !kind || !type || !shape)
		return jerr(b, where, "expected string fields name, kind, type and shape");
	ParamKind pk;
	if (!strcmp(kind, "in"))
		pk = P_IN;
	else if (!strcmp(kind, "out"))
		pk = P_OUT;
	else if (!strcmp(kind, "param"))
		pk = P_PARAM;
	else
		return jerr(b, where, "kind must be in, out or param");
	Type ty;
	if (type_parse(type, &ty) < 0)
		return jerr(b, where, "unknown type");
	Shape sh;
	if (!strcmp(shape, "[M,N]"))
		sh = SH_TILE;
	else if (!strcmp(shape, "[M]"))
		sh = SH_ROW;
	else if (!strcmp(shape, "[N]"))
		sh = SH_VEC;
	else if (!strcmp(shape, ""))
		sh = SH_SCALAR;
	else
		return jerr(b, where, "shape must be \"[M,N]\", \"[M]\", \"[N]\" or \"\"");
	double def = 0;
	if (pk == P_PARAM) {
		json_t *jd = json_object_get(jp, "default");
		if (json_is_number(jd))
			def = json_number_value(jd);
		else if (!json_is_string(jd) || inf_parse(json_string_value(jd), &def))
			return jerr(b, where,
				    "a param needs a numeric default (or \"inf\", \"-inf\")");
	}
	Diag *saved = b->d;
	if (kb_param(b, name, pk, ty, sh, def, (Loc){0}) < 0) {
		/* prefix the builder's message with where it came from */
		char msg[sizeof saved->msg];
		const char *m = strstr(saved->msg, "error: ");
		snprintf(msg, sizeof msg, "%s", m ? m + 7 : saved->msg);
		saved->set = 0;
		return jerr(b, where, msg);
	}
	return 0;
}

static int
read_instr(Builder *b, json_t *ji, int i)
{
	char where[64];
	snprintf(where, sizeof where, "body[%d]", i);
	if (!json_is_object(ji))
		return jerr(b, where, "expected an object");
	const char *opname = jstr(ji, "op");
	json_t *jres = json_object_get(ji, "results"), *jargs = json_object_get(ji, "args");
	if (!opname || !json_is_array(jres) || !json_is_array(jargs))
		return jerr(b, where, "expected op (a string), results and args (arrays)");
	Op op;
	Type to = TY_F32;
	if (!strncmp(opname, "cast.", 5)) {
		op = OP_CAST;
		if (type_parse(opname + 5, &to) < 0 || to == TY_T)
			return jerr(b, where, "unknown cast type");
	} else if (op_parse(opname, &op) < 0) {
		return jerr(b, where, "unknown op");
	}
	size_t nargs = json_array_size(jargs), nres = json_array_size(jres);
	if (nargs > MAX_ARGS + 1 || nres > MAX_RES)
		return jerr(b, where, "too many args or results");
	if ((op == OP_MAX || op == OP_MIN) && nargs == 1)
		op = op == OP_MAX ? OP_RMAX : OP_RMIN;
	int first_param = op == OP_LOAD || op == OP_GATHER || op == OP_STORE;
	int want_args = first_param ? (op == OP_LOAD ? 1 : 2) : op_info[op].nargs;
	int want_res = op == OP_STORE ? 0 : op == OP_WELFORD ? 3 : 1;
	if ((int)nargs != want_args)
		return jerr(b, where, "wrong number of args for this op");
	if ((int)nres != want_res)
		return jerr(b, where, "wrong number of results for this op");
	Instr *in = kb_instr(b, op, (Loc){0});
	if (!in)
		return -1;
	in->to = to;
	Diag *d = b->d;
	int rc = 0;
	for (size_t a = 0; a < nargs && rc == 0; a++) {
		const char *s = json_string_value(json_array_get(jargs, a));
		if (!s)
			return jerr(b, where, "args must be strings");
		rc = a == 0 && first_param ? kb_param_ref(b, in, s, (Loc){0})
					   : kb_operand(b, in, s, (Loc){0});
	}
	for (size_t r = 0; r < nres && rc == 0; r++) {
		const char *s = json_string_value(json_array_get(jres, r));
		if (!s)
			return jerr(b, where, "results must be strings");
		rc = kb_result(b, in, s, (Loc){0});
	}
	if (rc < 0) {
		char msg[sizeof d->msg];
		const char *m = strstr(d->msg, "error: ");
		snprintf(msg, sizeof msg, "%s", m ? m + 7 : d->msg);
		d->set = 0;
		return jerr(b, where, msg);
	}
	return 0;
}

Kernel *
parse_json(const char *file, const char *src, Diag *d)
{
	json_error_t je;
	json_t *root = json_loads(src, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		diag_at(d, file, (Loc){je.line > 0 ? je.line : 0, je.column > 0 ? je.column : 1},
			"invalid JSON: %s", je.text);
		return NULL;
	}
	Builder b;
	kb_init(&b, file, d);
	int rc = 0;
	const char *name = json_is_object(root) ? jstr(root, "kernel") : NULL;
	json_t *params = json_object_get(root, "params"), *body = json_object_get(root, "body");
	if (!name || !json_is_array(params) || !json_is_array(body)) {
		rc = jerr(&b, "kernel",
			  "expected an object with kernel (a string), params and body (arrays)");
	} else {
		rc = kb_name(&b, name, (Loc){0});
		json_t *doc = json_object_get(root, "doc");
		if (rc == 0 && doc && !json_is_string(doc))
			rc = jerr(&b, "doc", "expected a string");
		if (rc == 0)
			kb_doc(&b, doc ? json_string_value(doc) : NULL);
		for (size_t i = 0; rc == 0 && i < json_array_size(params); i++)
			rc = read_param(&b, json_array_get(params, i), (int)i);
		for (size_t i = 0; rc == 0 && i < json_array_size(body); i++)
			rc = read_instr(&b, json_array_get(body, i), (int)i);
		if (rc == 0 && json_array_size(body) == 0)
			rc = jerr(&b, "body", "the kernel has no statements");
	}
	json_decref(root);
	if (rc < 0) {
		kb_abort(&b);
		return NULL;
	}
	return kb_finish(&b);
}

static json_t *
arg_json(const Kernel *k, const Arg *a)
{
	Buf b = {0};
	switch (a->kind) {
	case ARG_VAL:
		buf_printf(&b, "%%%s", k->vals[a->idx].name);
		break;
	case ARG_PARAM:
		buf_puts(&b, k->params[a->idx].name);
		break;
	case ARG_IMM:
		buf_double(&b, a->imm);
		break;
	case ARG_N:
		buf_puts(&b, "N");
		break;
	}
	json_t *s = json_string(b.s);
	buf_free(&b);
	return s;
}

void
kernel_print_json(Buf *out, const Kernel *k)
{
	json_t *root = json_object();
	json_object_set_new(root, "kernel", json_string(k->name));
	if (k->doc)
		json_object_set_new(root, "doc", json_string(k->doc));
	json_t *params = json_array();
	for (int i = 0; i < k->nparams; i++) {
		const Param *p = &k->params[i];
		json_t *jp = json_object();
		json_object_set_new(jp, "name", json_string(p->name));
		json_object_set_new(jp, "kind", json_string(kind_names[p->kind]));
		json_object_set_new(jp, "type", json_string(type_name(p->type)));
		json_object_set_new(jp, "shape", json_string(shape_name(p->shape)));
		/* json_real takes no infinity: those are strings (docs/ir.md) */
		if (p->kind == P_PARAM && isinf(p->def))
			json_object_set_new(jp, "default",
					    json_string(p->def < 0 ? "-inf" : "inf"));
		else if (p->kind == P_PARAM)
			json_object_set_new(jp, "default", json_real(p->def));
		json_array_append_new(params, jp);
	}
	json_object_set_new(root, "params", params);
	json_t *body = json_array();
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		json_t *ji = json_object();
		char opname[32];
		if (in->op == OP_CAST)
			snprintf(opname, sizeof opname, "cast.%s", type_name(in->to));
		else
			snprintf(opname, sizeof opname, "%s", op_info[in->op].name);
		json_object_set_new(ji, "op", json_string(opname));
		json_t *res = json_array();
		for (int r = 0; r < in->nres; r++) {
			char tmp[160];
			if (in->res[r] < 0)
				snprintf(tmp, sizeof tmp, "_");
			else
				snprintf(tmp, sizeof tmp, "%%%s", k->vals[in->res[r]].name);
			json_array_append_new(res, json_string(tmp));
		}
		json_object_set_new(ji, "results", res);
		json_t *args = json_array();
		if (in->param >= 0)
			json_array_append_new(args, json_string(k->params[in->param].name));
		for (int a = 0; a < in->nargs; a++)
			json_array_append_new(args, arg_json(k, &in->args[a]));
		json_object_set_new(ji, "args", args);
		json_array_append_new(body, ji);
	}
	json_object_set_new(root, "body", body);
	char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	buf_puts(out, s);
	buf_puts(out, "\n");
	free(s);
	json_decref(root);
}
