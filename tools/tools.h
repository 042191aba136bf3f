/* The rkc command line: one file per command, dispatched from main.c. */
#ifndef RKC_TOOLS_H
#define RKC_TOOLS_H

#include <jansson.h>
#include <sys/stat.h>

#include "driver/rkc.h"
#include "frontends/frontends.h"
#include "runtime/runtime.h"

/* The command line (tools/args.c): every command is a Cmd, a table of its options, and one parser
 * reads any command's arguments by its table; the usage line and --help are printed from the same
 * table, so what a command lists is what it takes. */

/* An option: a flag (arg NULL) or one that takes a value, as "--opt VALUE", "--opt=VALUE" or,
 * for a one-letter name, "-oVALUE". */
typedef struct {
	const char *name; /* "--shape", or a one-letter "-o" */
	const char *arg;  /* the value's name in usage ("MxN"); NULL: a flag */
	const char *help; /* its line in --help */
	int flags;
} Opt;
enum {
	OPT_REQUIRED = 1, /* a usage error when absent */
	OPT_REPEAT = 2,	  /* may be given up to MAX_REPEAT times; else twice is a usage error */
};
#define MAX_OPTS 32
#define MAX_REPEAT 64

/* The options every command that compiles takes, one spelling and one help line each. */
#define OPT_SHAPE_HELP "M rows of N elements; BxLxN is M = B*L rows"
#define OPT_SHAPE                                                                                  \
	{                                                                                          \
		"--shape", "MxN", OPT_SHAPE_HELP, OPT_REQUIRED                                     \
	}
#define OPT_DTYPE                                                                                  \
	{                                                                                          \
		"--dtype", "D", "bf16, fp16 or fp32 (f16 and f32 are accepted)", OPT_REQUIRED      \
	}
#define OPT_ARCH                                                                                   \
	{                                                                                          \
		"--arch", "ARCH", RKC_ARCHS " (default sm_90)", 0                                  \
	}
#define OPT_POLICY                                                                                 \
	{                                                                                          \
		"--policy", "P", "rkc or helion2828 (default rkc)", 0                              \
	}
#define OPT_CONFIG                                                                                 \
	{                                                                                          \
		"--config", "K=V,...",                                                             \
		    "force knobs over the policy's choice: r_block=2048,num_warps=8", 0            \
	}
#define OPT_BATCH_INVARIANT                                                                        \
	{                                                                                          \
		"--batch-invariant", NULL,                                                         \
		    "a row's results do not depend on M or its place (rkc policy only)", 0         \
	}
#define OPT_REGIONS_EVERY                                                                          \
	{                                                                                          \
		"--regions-every", "E",                                                            \
		    "with --regions: stamp 1 row block in E (default: the blocks over 64, 1 to "   \
		    "16; 1: every block, a CTA's whole life)",                                     \
		    0                                                                              \
	}
#define OPT_SEED                                                                                   \
	{                                                                                          \
		"--seed", "S", "the seed the inputs are drawn from (default 1)", 0                 \
	}
#define OPT_COPY_GBPS                                                                              \
	{                                                                                          \
		"--copy-gbps", "G",                                                                \
		    "the copy bandwidth to compare with, in GB/s (default: measured)", 0           \
	}
#define OPT_INPUTS                                                                                 \
	{                                                                                          \
		"--inputs", "FILE", "the input distributions (default testdata/inputs.json)", 0    \
	}
#define OPT_TOLERANCES                                                                             \
	{                                                                                          \
		"--tolerances", "FILE", "the tolerances (default testdata/tolerances.json)", 0     \
	}

typedef struct Args Args;
typedef struct {
	const char *name;
	const char *operands;		/* in the usage line: "K.rk", "K.rk..." */
	int min_operands, max_operands; /* max -1: any number */
	const char *missing;		/* the message for too few operands */
	const char *summary;		/* a line, for rkc --help and the top of --help */
	const Opt *opts;	   /* ends with an empty name; -h and --help are every command's */
	const char *about;	   /* more, after the options in --help; or NULL */
	int (*run)(const Args *a); /* the exit status */
} Cmd;

/* What a command was given: operands in order, and each option's values by table index. */
struct Args {
	const Cmd *cmd;
	char **operands; /* argv's own slots, moved to its front */
	int noperands;
	int n[MAX_OPTS]; /* times given */
	const char *val[MAX_OPTS][MAX_REPEAT];
};

enum { ARGS_OK = 0, ARGS_HELP = 1, ARGS_BAD = 2 };
/* argv[0] is the command's name. ARGS_OK, or ARGS_HELP after --help was printed to stdout, or
 * ARGS_BAD after a usage error was printed to stderr. */
int args_parse(const Cmd *c, int argc, char **argv, Args *a);
/* An option's value (the first, for a repeated one), or NULL when not given or not the
 * command's; how many times it was given, and its values. */
const char *arg_value(const Args *a, const char *name);
int arg_count(const Args *a, const char *name);
const char *const *arg_values(const Args *a, const char *name);
/* A usage error: "rkc CMD: error: ..." and the usage line on stderr; returns 2. */
int args_error(const Args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The usage line(s), and the whole of --help. */
void args_usage(FILE *f, const Cmd *c);
void args_help(FILE *f, const Cmd *c);

/* --dtype, --arch, --policy, --config, --batch-invariant and a single --shape, whichever the
 * command takes, into rq (all but k): 0, or 2 after a bad value's message ("rkc CMD: error: ...")
 * or a usage error (--batch-invariant with a policy other than rkc). */
int tool_request(const Args *a, Request *rq);
/* --seed and --copy-gbps into ro: 0, or 2 after a bad value's message. */
int tool_run_opts(const Args *a, RunOpts *ro);
/* o on a line of its own, compact with sorted keys; o is freed. */
void tool_put_json(json_t *o);
/* A JSON number for v, or null where v is not finite (json_pack's "f" refuses those). */
json_t *tool_json_real(double v);
/* The spelling every command prints a dtype with: bf16, fp16, fp32 (what --dtype lists). */
const char *tool_dtype_name(Type t);

/* The commands, each in its file. */
extern const Cmd cmd_check, cmd_print; /* tools/main.c */
extern const Cmd cmd_explain, cmd_compile, cmd_golden, cmd_run, cmd_tune, cmd_table;

/* Read and parse a kernel file ("-" is stdin), printing the diagnostic to stderr on error. */
Kernel *tool_load_kernel(const char *path);
/* --shape for command cmd (shape_parse: MxN, or BxLxN flattened to M = B*L rows): 0, or -1
 * with the message on stderr. */
int tool_parse_shape(const char *cmd, const char *s, int64_t *M, int64_t *N);
/* --config for command cmd read as config_parse reads it, before any kernel is loaded, so that
 * bad syntax is a usage error and not an infeasible config: 0, or -1 with the message on stderr. */
int tool_check_config(const char *cmd, const char *s);
/* Write data to path as out_open and out_commit do, printing any error; "-" is stdout. */
int tool_write_file(const char *path, const char *data, size_t len);
/* The pipeline's PTX (moved into ptx) and its manifest, parsed, for a request with emit set. */
int tool_build(const Request *rq, Buf *ptx, Manifest *m, Diag *d);
/* The data file given on the command line, else testdata/NAME from here or from the source tree;
 * *used names the file read. NULL with d set when there is none. */
char *tool_read_data(const char *given, const char *name, const char **used, Diag *d);

/* An output file (tools/output.c). A regular file is written to a temporary beside it and renamed
 * over it, keeping its mode; a symbolic link stays and its target is replaced so. What is not a
 * regular file (a FIFO, a device), or is reached through /proc or /dev/fd (/dev/stdout), is
 * written in place. A directory, and the input when it is a regular file, are refused. */
typedef struct {
	const char *path; /* as given, for messages */
	char *dest;	  /* what is replaced: path with its symbolic links followed */
	char *tmp;	  /* the temporary; NULL when written in place */
	struct stat old;  /* dest before, when had_old */
	int fd, in_place, had_old, placed;
} OutFile;

/* Checks path against input ("-": standard input; NULL: none) and opens what writing it takes;
 * -1 with d set. Call out_free after, whatever happened. */
int out_open(OutFile *o, const char *path, const char *input, Diag *d);
/* Writes all of data and closes the file: a temporary, or an in-place file now written. */
int out_write(OutFile *o, const char *data, size_t len, Diag *d);
/* Renames the written temporaries over their destinations: all, or on error none (output.c says
 * when that holds, and what a reader sees). */
int out_commit(OutFile *const *os, int n, Diag *d);
void out_free(OutFile *o);

#endif
