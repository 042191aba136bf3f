/* Printer: the canonical .rk text of a kernel, which parses back to the same kernel. */
#include <string.h>

#include "analysis/ir.h"

static void
print_arg(Buf *b, const Kernel *k, const Arg *a)
{
	switch (a->kind) {
	case ARG_VAL:
		buf_printf(b, "%%%s", k->vals[a->idx].name);
		break;
	case ARG_PARAM:
		buf_puts(b, k->params[a->idx].name);
		break;
	case ARG_IMM:
		buf_double(b, a->imm);
		break;
	case ARG_N:
		buf_puts(b, "N");
		break;
	}
}

void
kernel_print(Buf *b, const Kernel *k)
{
	if (k->doc) {
		const char *s = k->doc;
		for (;;) {
			const char *e = strchr(s, '\n');
			int n = e ? (int)(e - s) : (int)strlen(s);
			buf_printf(b, n ? "# %.*s\n" : "#%.*s\n", n, s);
			if (!e)
				break;
			s = e + 1;
		}
	}
	buf_printf(b, "kernel %s\n\n", k->name);
	static const char *kinds[] = {"in   ", "out  ", "param"};
	for (int i = 0; i < k->nparams; i++) {
		const Param *p = &k->params[i];
		buf_printf(b, "%s %s", kinds[p->kind], p->name);
		if (p->kind == P_PARAM) {
			buf_puts(b, " = ");
			buf_double(b, p->def);
		} else {
			buf_printf(b, ": %s%s", type_name(p->type), shape_name(p->shape));
		}
		buf_puts(b, "\n");
	}
	if (k->nparams)
		buf_puts(b, "\n");
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		for (int r = 0; r < in->nres; r++) {
			if (r)
				buf_puts(b, ", ");
			if (in->res[r] < 0)
				buf_puts(b, "_");
			else
				buf_printf(b, "%%%s", k->vals[in->res[r]].name);
		}
		if (in->nres)
			buf_puts(b, " = ");
		if (in->op == OP_CAST)
			buf_printf(b, "cast.%s", type_name(in->to));
		else
			buf_puts(b, op_info[in->op].name);
		if (in->param >= 0)
			buf_printf(b, " %s%s", k->params[in->param].name, in->nargs ? "," : "");
		for (int a = 0; a < in->nargs; a++) {
			buf_puts(b, a ? ", " : " ");
			print_arg(b, k, &in->args[a]);
		}
		buf_puts(b, "\n");
	}
}
