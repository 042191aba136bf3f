/* rkc: the command line, a thin layer over librkc. */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tools.h"

/* A kernel file, or NULL with its diagnostic in d. */
static Kernel *
load_kernel(const char *path, Diag *d)
{
	char *src = read_file(path, NULL, d);
	Kernel *k = src ? parse_kernel(strcmp(path, "-") ? path : "<stdin>", src, d) : NULL;
	free(src);
	return k;
}

Kernel *
tool_load_kernel(const char *path)
{
	Diag d = {0};
	Kernel *k = load_kernel(path, &d);
	if (!k)
		fprintf(stderr, "%s\n", d.msg);
	return k;
}

int
tool_parse_shape(const char *cmd, const char *s, int64_t *M, int64_t *N)
{
	Diag d = {0};
	if (!shape_parse(s, M, N, &d))
		return 0;
	fprintf(stderr, "rkc %s: %s\n", cmd, d.msg);
	return -1;
}

int
tool_check_config(const char *cmd, const char *s)
{
	Diag d = {0};
	Config scratch = {0};
	if (!config_parse(s, &scratch, &d))
		return 0;
	fprintf(stderr, "rkc %s: %s\n", cmd, d.msg);
	return -1;
}

int
tool_write_file(const char *path, const char *data, size_t len)
{
	if (!strcmp(path, "-"))
		return fwrite(data, 1, len, stdout) == len ? 0 : -1;
	OutFile o;
	OutFile *one[] = {&o};
	Diag d = {0};
	int rc =
	    out_open(&o, path, NULL, &d) || out_write(&o, data, len, &d) || out_commit(one, 1, &d);
	out_free(&o);
	if (rc)
		fprintf(stderr, "rkc: %s\n", d.msg);
	return rc ? -1 : 0;
}

/* What check --summary counts: inputs, outputs and reductions. */
typedef struct {
	int in, out, red;
} Counts;

static Counts
count(const Kernel *k)
{
	Counts n = {0};
	for (int p = 0; p < k->nparams; p++)
		n.in += k->params[p].kind == P_IN, n.out += k->params[p].kind == P_OUT;
	for (int j = 0; j < k->nins; j++)
		n.red += op_is_reduce(k->ins[j].op);
	return n;
}

/* One kernel file as check --json prints it: the --summary counts, or the error. */
static void
print_check_json(const char *path, const Kernel *k, const char *err)
{
	json_t *o = json_pack("{s:s,s:b}", "file", path, "ok", k != NULL);
	if (k) {
		Counts n = count(k);
		json_object_set_new(o, "kernel", json_string(k->name));
		json_object_set_new(o, "inputs", json_integer(n.in));
		json_object_set_new(o, "outputs", json_integer(n.out));
		json_object_set_new(o, "ops", json_integer(k->nins));
		json_object_set_new(o, "reductions", json_integer(n.red));
	} else {
		json_object_set_new(o, "error", json_string(err));
	}
	tool_put_json(o);
}

static void
print_summary(const Kernel *k)
{
	Counts n = count(k);
	printf("ok  %-24s %2d inputs  %d outputs  %2d ops  %d reductions\n", k->name, n.in, n.out,
	       k->nins, n.red);
}

static int
check_run(const Args *a)
{
	int summary = arg_count(a, "--summary"), json = arg_count(a, "--json"), bad = 0;
	for (int i = 0; i < a->noperands; i++) {
		const char *path = a->operands[i];
		Diag d = {0};
		Kernel *k = load_kernel(path, &d);
		if (!k) {
			fprintf(stderr, "%s\n", d.msg);
			bad++;
		}
		if (json) {
			print_check_json(path, k, d.msg);
		} else if (k && summary) {
			print_summary(k);
		} else if (k) {
			Buf b = {0};
			kernel_print(&b, k);
			fputs(b.s, stdout);
			buf_free(&b);
		}
		kernel_free(k);
	}
	if (summary && !json)
		printf("%d of %d kernels checked\n", a->noperands - bad, a->noperands);
	return bad ? 1 : 0;
}

const Cmd cmd_check = {
    .name = "check",
    .operands = "K.rk...",
    .min_operands = 1,
    .max_operands = -1,
    .missing = "no kernel file given",
    .summary = "Parse and verify kernels; print each one's canonical IR.",
    .opts =
	(const Opt[]){
	    {"--summary", NULL,
	     "a line a kernel (its inputs, outputs, ops, reductions) and a total", 0},
	    {"--json", NULL,
	     "a JSON object a line for each kernel file: file, ok, and the --summary counts or "
	     "the error",
	     0},
	    {0},
	},
    .about = "Exit 1 when any kernel has an error (each is printed), after checking them all.\n",
    .run = check_run,
};

static int
print_run(const Args *a)
{
	Kernel *k = tool_load_kernel(a->operands[0]);
	if (!k)
		return 1;
	Buf b = {0};
	if (arg_count(a, "--json"))
		kernel_print_json(&b, k);
	else
		kernel_print(&b, k);
	fputs(b.s, stdout);
	buf_free(&b);
	kernel_free(k);
	return 0;
}

const Cmd cmd_print = {
    .name = "print",
    .operands = "K.rk",
    .min_operands = 1,
    .max_operands = 1,
    .missing = "no kernel file given",
    .summary = "Print a kernel as .rk text or as JSON.",
    .opts = (const Opt[]){{"--json", NULL, "its JSON form (docs/ir.md)", 0}, {0}},
    .run = print_run,
};

static const Cmd *const commands[] = {&cmd_check,  &cmd_print, &cmd_explain, &cmd_compile,
				      &cmd_golden, &cmd_run,   &cmd_tune,    &cmd_table};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void
usage(FILE *f)
{
	fputs("usage: rkc COMMAND [ARGS]\n\ncommands:\n", f);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i]->name, commands[i]->summary);
	fputs("\nrkc help COMMAND, or rkc COMMAND --help, lists a command's options. A kernel file "
	      "K.rk may be\n.rk text or its JSON form; '-' reads standard input. Exit status: 0 "
	      "done, 1 failed,\n2 a usage error.\n\n  rkc --help | --version\n",
	      f);
}

static const Cmd *
find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i]->name))
			return commands[i];
	fprintf(stderr, "rkc: error: unknown command '%s' (see rkc --help)\n", name);
	return NULL;
}

/* What a command printed may still sit in stdio's buffer, and a full disk may only show when it is
 * flushed: a command whose output was lost must not exit 0. */
static int
close_stdout(int rc)
{
	errno = 0;
	int failed = fflush(stdout) != 0 || ferror(stdout), err = errno;
	/* EBADF with nothing left to flush: stdout was closed from the start, and not written */
	if (fclose(stdout) && errno != EBADF && !failed)
		failed = 1, err = errno;
	if (!failed)
		return rc;
	if (err)
		fprintf(stderr, "rkc: error: cannot write standard output: %s\n", strerror(err));
	else
		fputs("rkc: error: cannot write standard output\n", stderr);
	return rc ? rc : 1;
}

/* The command's arguments through the one parser, then the command. */
static int
dispatch(const Cmd *c, int argc, char **argv)
{
	Args a;
	int rc = args_parse(c, argc, argv, &a);
	return rc == ARGS_HELP ? 0 : rc == ARGS_BAD ? 2 : c->run(&a);
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(
		    "rkc: error: no command given\nusage: rkc COMMAND [ARGS] (rkc --help lists the "
		    "commands)\n",
		    stderr);
		return 2;
	}
	const char *first = argv[1];
	if (!strcmp(first, "--help") || !strcmp(first, "-h") ||
	    (!strcmp(first, "help") && argc == 2)) {
		usage(stdout);
		return close_stdout(0);
	}
	if (!strcmp(first, "--version")) {
		printf("rkc %s\n", RKC_VERSION);
		return close_stdout(0);
	}
	if (!strcmp(first, "help")) {
		const Cmd *c = argc == 3 ? find_command(argv[2]) : NULL;
		if (argc > 3)
			fputs("rkc help: error: one command at a time\nusage: rkc help [COMMAND]\n",
			      stderr);
		if (!c)
			return 2;
		args_help(stdout, c);
		return close_stdout(0);
	}
	const Cmd *c = find_command(first);
	return c ? close_stdout(dispatch(c, argc - 1, argv + 1)) : 2;
}
