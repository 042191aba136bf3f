/* The rkc command line: one file per command, dispatched from main.c. */
#ifndef RKC_TOOLS_H
#define RKC_TOOLS_H

#include <sys/stat.h>

#include "driver/rkc.h"
#include "frontends/frontends.h"
#include "runtime/runtime.h"

/* A command's own option: one that takes a value (value set; required, when set, is the
 * message for its absence) or a flag. A list ends with an empty name. */
typedef struct {
	const char *name;
	const char **value;
	int *flag;
	const char *required;
} ToolOpt;
/* The options of a command that compiles through the pipeline (--shape, --dtype, --arch,
 * --policy, --config) and its own, into rq (all but k) and the kernel file's path: 0, or 2 after
 * a usage error naming cmd and its usage line (tools/args.c). */
int tool_request_args(const char *cmd, const char *usage, int argc, char **argv, const ToolOpt *own,
		      Request *rq, const char **path);

/* Each command: argv[0] is the command name; returns the process exit status. */
int cmd_check(int argc, char **argv);
int cmd_print(int argc, char **argv);
int cmd_explain(int argc, char **argv); /* tools/explain.c */
int cmd_golden(int argc, char **argv);	/* tools/golden.c */
int cmd_compile(int argc, char **argv); /* tools/compile.c */
int cmd_run(int argc, char **argv);	/* tools/run.c */
int cmd_tune(int argc, char **argv);	/* tools/tune.c */

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
