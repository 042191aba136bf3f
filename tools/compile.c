/* rkc compile: a kernel and a chosen or forced config to PTX, plus its launch manifest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tools.h"

/* out.ptx -> out.json; any other name gets .json appended. */
static char *
manifest_path(const char *ptx)
{
	size_t n = strlen(ptx);
	char *s = malloc(n + 6);
	if (n > 4 && !strcmp(ptx + n - 4, ".ptx"))
		n -= 4;
	memcpy(s, ptx, n);
	strcpy(s + n, ".json");
	return s;
}

/* The PTX and its manifest beside it, both or neither (out_commit says what a reader sees). A PTX
 * written in place (a FIFO, /dev/null) gets no manifest, as with -o -. Neither file may be the
 * input, and they may not be one file. */
static int
write_outputs(const char *input, const char *out, const Buf *ptx, const Buf *man)
{
	char *mpath = manifest_path(out);
	OutFile p, m = {.fd = -1};
	OutFile *both[] = {&p, &m};
	Diag d = {0};
	int rc = out_open(&p, out, input, &d), hint = 0;
	if (!rc && p.in_place) {
		rc = out_write(&p, ptx->s, ptx->len, &d);
	} else if (!rc) {
		rc = hint = out_open(&m, mpath, input, &d);
		if (!rc && p.had_old && m.had_old && p.old.st_dev == m.old.st_dev &&
		    p.old.st_ino == m.old.st_ino)
			rc = hint = diag(&d, "'%s' and '%s' are one file", out, mpath);
		if (!rc)
			rc = out_write(&p, ptx->s, ptx->len, &d) ||
			     out_write(&m, man->s, man->len, &d) || out_commit(both, 2, &d);
	}
	if (rc)
		fprintf(stderr, "rkc compile: %s%s\n", d.msg,
			hint ? " (the manifest's name is -o's with .json for .ptx)" : "");
	out_free(&p);
	out_free(&m);
	free(mpath);
	return rc ? -1 : 0;
}

static void
print_ptxas(FILE *f, const char *arch, const PtxasFunc *p)
{
	fprintf(f,
		"ptxas %s %s: %d registers, %ld bytes spill stores, %ld bytes spill loads, %ld "
		"bytes stack, %ld bytes smem, %d barriers\n",
		arch, p->name, p->regs, p->spill_stores, p->spill_loads, p->stack, p->smem,
		p->barriers);
}

static int
compile_run(const Args *a)
{
	const char *path = a->operands[0], *out = arg_value(a, "-o");
	int run_ptxas = arg_count(a, "--ptxas");
	Request rq;
	if (tool_request(a, &rq))
		return 2;
	rq.emit = 1;
	const char *arch = rq.arch;
	Diag d = {0};
	Kernel *k = tool_load_kernel(path);
	if (!k)
		return 1;
	rq.k = k;
	Result r;
	Buf log = {0};
	int rc = 1;
	if (rkc_compile(&rq, &r, &d)) {
		fprintf(stderr, "rkc compile: %s\n", d.msg);
		goto out;
	}
	if (run_ptxas) {
		if (ptxas_run(r.ptx.s, arch, &log, &d)) {
			fprintf(stderr, "rkc compile: %s\n", d.msg);
			goto out;
		}
		PtxasFunc pf[8];
		int n = ptxas_parse(log.s ? log.s : "", pf, 8);
		for (int i = 0; i < n; i++)
			print_ptxas(strcmp(out, "-") ? stdout : stderr, arch, &pf[i]);
	}
	if (!strcmp(out, "-"))
		rc = tool_write_file("-", r.ptx.s, r.ptx.len) ? 1 : 0;
	else
		rc = write_outputs(path, out, &r.ptx, &r.manifest) ? 1 : 0;
out:
	rkc_result_free(&r);
	buf_free(&log);
	kernel_free(k);
	return rc;
}

const Cmd cmd_compile = {
    .name = "compile",
    .operands = "K.rk",
    .min_operands = 1,
    .max_operands = 1,
    .missing = "no kernel file given",
    .summary = "Compile a kernel for a shape to PTX, with the launch manifest beside it.",
    .opts =
	(const Opt[]){
	    OPT_SHAPE,
	    OPT_DTYPE,
	    OPT_ARCH,
	    OPT_POLICY,
	    OPT_CONFIG,
	    OPT_BATCH_INVARIANT,
	    {"--ptxas", NULL, "assemble the PTX with ptxas and print its report", 0},
	    {"--regions", NULL, "stamp each phase's start and end per CTA (docs/regions.md)", 0},
	    {"-o", "FILE",
	     "the PTX, and the manifest as FILE with .json for .ptx; - prints the PTX alone",
	     OPT_REQUIRED},
	    {0},
	},
    .about = "Both files are written to temporaries and renamed into place together, so an error "
	     "changes\nneither; the input is never written over.\n",
    .run = compile_run,
};
