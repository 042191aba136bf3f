/* rkc: the command line, a thin layer over librkc. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tools.h"

typedef struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
} Command;

static const Command commands[] = {
    {"check", cmd_check, "check [--summary] K.rk...      parse and verify, print the IR"},
    {"print", cmd_print, "print [--json] K.rk            print the IR as .rk text or JSON"},
    {"explain", cmd_explain,
     "explain K.rk --shape MxN --dtype D  facts, the chosen config, and why"},
    {"compile", cmd_compile,
     "compile K.rk --shape MxN --dtype D [--config k=v,...] -o out.ptx  PTX and its manifest"},
    {"golden", cmd_golden, "golden check|update|diff OLD NEW  the golden-config suite"},
    {"run", cmd_run, "run K.rk --shape MxN --dtype D  on a GPU: check against the reference, time"},
    {"tune", cmd_tune,
     "tune K.rk --shape MxN --dtype D [--top N]  on a GPU: time the rkc policy's candidates, "
     "seed vs best"},
};

static void
usage(FILE *f)
{
	fputs("usage: rkc COMMAND [ARGS]\n\nA kernel file K.rk may be .rk text or its JSON form; "
	      "'-' reads standard input.\n\ncommands:\n",
	      f);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  rkc %s\n", commands[i].usage);
	fputs("\n  rkc --help | --version\n", f);
}

Kernel *
tool_load_kernel(const char *path)
{
	Diag d = {0};
	char *src = read_file(path, NULL, &d);
	Kernel *k = src ? parse_kernel(strcmp(path, "-") ? path : "<stdin>", src, &d) : NULL;
	free(src);
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

int
cmd_check(int argc, char **argv)
{
	int summary = 0, nfiles = 0, bad = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--summary")) {
			summary = 1;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "rkc check: error: unknown option '%s'\n", argv[i]);
			return 2;
		}
		nfiles++;
		Kernel *k = tool_load_kernel(argv[i]);
		if (!k) {
			bad++;
			continue;
		}
		if (summary) {
			int in = 0, out = 0, red = 0;
			for (int p = 0; p < k->nparams; p++)
				in += k->params[p].kind == P_IN, out += k->params[p].kind == P_OUT;
			for (int j = 0; j < k->nins; j++)
				red += op_is_reduce(k->ins[j].op);
			printf("ok  %-24s %2d inputs  %d outputs  %2d ops  %d reductions\n",
			       k->name, in, out, k->nins, red);
		} else {
			Buf b = {0};
			kernel_print(&b, k);
			fputs(b.s, stdout);
			buf_free(&b);
		}
		kernel_free(k);
	}
	if (nfiles == 0) {
		fputs("rkc check: error: no kernel file given\n", stderr);
		return 2;
	}
	if (summary)
		printf("%d of %d kernels checked\n", nfiles - bad, nfiles);
	return bad ? 1 : 0;
}

int
cmd_print(int argc, char **argv)
{
	int json = 0;
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "rkc print: error: unknown option '%s'\n", argv[i]);
			return 2;
		} else if (path) {
			fputs("rkc print: error: one kernel file at a time\n", stderr);
			return 2;
		} else
			path = argv[i];
	}
	if (!path) {
		fputs("rkc print: error: no kernel file given\n", stderr);
		return 2;
	}
	Kernel *k = tool_load_kernel(path);
	if (!k)
		return 1;
	Buf b = {0};
	if (json)
		kernel_print_json(&b, k);
	else
		kernel_print(&b, k);
	fputs(b.s, stdout);
	buf_free(&b);
	kernel_free(k);
	return 0;
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

int
main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("rkc %s\n", RKC_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			return close_stdout(commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "rkc: error: unknown command '%s' (see rkc --help)\n", argv[1]);
	return 2;
}
