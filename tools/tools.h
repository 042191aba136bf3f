/* The rkc command line: one file per command, dispatched from main.c. */
#ifndef RKC_TOOLS_H
#define RKC_TOOLS_H

#include "frontends/frontends.h"
#include "runtime/runtime.h"

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
/* Write data to path atomically (a temporary file beside it, then rename); "-" is stdout. */
int tool_write_file(const char *path, const char *data, size_t len);
/* PTX and its parsed manifest for kernel k at c, as `rkc compile` writes them (tools/run.c). */
int tool_build(const Kernel *k, const Compile *c, const char *policy, const char *const *reasons,
	       int nreasons, Buf *ptx, Manifest *m, Diag *d);
/* The data file given on the command line, else testdata/NAME from here or from the source tree;
 * *used names the file read. NULL with d set when there is none. */
char *tool_read_data(const char *given, const char *name, const char **used, Diag *d);

#endif
