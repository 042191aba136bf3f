/* rkc compile: a kernel and a chosen or forced config to PTX or a cubin, plus its launch manifest;
 * one per --shape. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tools.h"

/* The length of out without its .ptx or .cubin suffix. */
static size_t
stem(const char *out)
{
	size_t n = strlen(out);
	if (n > 4 && !strcmp(out + n - 4, ".ptx"))
		return n - 4;
	if (n > 6 && !strcmp(out + n - 6, ".cubin"))
		return n - 6;
	return n;
}

/* out.ptx -> out.json, out.cubin -> out.json; any other name gets .json appended. */
static char *
manifest_path(const char *out)
{
	size_t n = stem(out);
	char *s = malloc(n + 6);
	memcpy(s, out, n);
	strcpy(s + n, ".json");
	return s;
}

/* With several shapes, each output is -o's name with .MxN before its suffix: k.ptx ->
 * k.64x4096.ptx (and k.64x4096.json); k -> k.64x4096. */
static char *
shape_path(const char *out, int64_t M, int64_t N)
{
	size_t n = stem(out);
	Buf b = {0};
	buf_printf(&b, "%.*s.%lldx%lld%s", (int)n, out, (long long)M, (long long)N, out + n);
	return b.s;
}

static int
is_cubin(const char *out)
{
	size_t n = strlen(out);
	return n > 6 && !strcmp(out + n - 6, ".cubin");
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

/* One shape: compile (through the cache with --cache), report ptxas with --ptxas, write. */
static int
compile_one(const Args *a, Request *rq, const char *path, const char *out)
{
	const char *arch = rq->arch, *dir = arg_count(a, "--cache") ? NULL : "";
	int cubin = strcmp(out, "-") && is_cubin(out);
	Diag d = {0};
	Artifact art;
	Buf log = {0};
	int rc = 1;
	if (rkc_compile_cached(rq, cubin, dir, &art, &d)) {
		fprintf(stderr, "rkc compile: %s\n", d.msg);
		goto out;
	}
	if (art.warning[0])
		fprintf(stderr, "rkc compile: warning: %s\n", art.warning);
	if (arg_count(a, "--ptxas")) {
		if (ptxas_run(art.ptx.s, arch, &log, &d)) {
			fprintf(stderr, "rkc compile: %s\n", d.msg);
			goto out;
		}
		PtxasFunc pf[8];
		int n = ptxas_parse(log.s ? log.s : "", pf, 8);
		for (int i = 0; i < n; i++)
			print_ptxas(strcmp(out, "-") ? stdout : stderr, arch, &pf[i]);
	}
	const Buf *code = cubin ? &art.cubin : &art.ptx;
	if (!strcmp(out, "-"))
		rc = tool_write_file("-", art.ptx.s, art.ptx.len) ? 1 : 0;
	else
		rc = write_outputs(path, out, code, &art.manifest) ? 1 : 0;
out:
	rkc_artifact_free(&art);
	buf_free(&log);
	return rc;
}

static int
compile_run(const Args *a)
{
	const char *path = a->operands[0], *out = arg_value(a, "-o");
	const char *const *shapes = arg_values(a, "--shape");
	int nshapes = arg_count(a, "--shape");
	Request rq;
	if (tool_request(a, &rq))
		return 2;
	if (nshapes > 1 && !strcmp(out, "-"))
		return args_error(a, "-o - takes one --shape (%d given)", nshapes);
	int64_t M[MAX_REPEAT], N[MAX_REPEAT];
	for (int i = 0; i < nshapes; i++)
		if (tool_parse_shape("compile", shapes[i], &M[i], &N[i]))
			return 2;
	Kernel *k = tool_load_kernel(path);
	if (!k)
		return 1;
	rq.k = k;
	int rc = 0;
	for (int i = 0; i < nshapes && !rc; i++) {
		rq.M = M[i];
		rq.N = N[i];
		char *o = nshapes > 1 ? shape_path(out, M[i], N[i]) : NULL;
		rc = compile_one(a, &rq, path, o ? o : out);
		free(o);
	}
	kernel_free(k);
	return rc;
}

const Cmd cmd_compile = {
    .name = "compile",
    .operands = "K.rk",
    .min_operands = 1,
    .max_operands = 1,
    .missing = "no kernel file given",
    .summary = "Compile a kernel for a shape to PTX or a cubin, with the launch manifest beside "
	       "it.",
    .opts =
	(const Opt[]){
	    {"--shape", "MxN", OPT_SHAPE_HELP "; a kernel each", OPT_REQUIRED | OPT_REPEAT},
	    OPT_DTYPE,
	    OPT_ARCH,
	    OPT_POLICY,
	    OPT_CONFIG,
	    OPT_BATCH_INVARIANT,
	    {"--ptxas", NULL, "assemble the PTX with ptxas and print its report", 0},
	    {"--regions", NULL,
	     "stamp the boundaries of each phase, per row block (docs/regions.md)", 0},
	    OPT_REGIONS_EVERY,
	    {"--cache", NULL, "read and fill the on-disk cache (docs/cache.md)", 0},
	    {"-o", "FILE",
	     "K.ptx, or K.cubin (ptxas), and the manifest K.json; - prints the PTX alone",
	     OPT_REQUIRED},
	    {0},
	},
    .about =
	"Both files are written to temporaries and renamed into place together, so an error "
	"changes\nneither; the input is never written over. With several --shape, each "
	"shape's files are -o's\nname with .MxN before the suffix (k.ptx: k.64x4096.ptx and "
	"k.64x4096.json), written in\nturn; the first error stops. --cache keeps what it "
	"compiles in $RKC_CACHE_DIR, else\n$XDG_CACHE_HOME/rkc, else ~/.cache/rkc, and reads "
	"it back for the same kernel text and options.\nWhere ptxas is found, the policy's pick "
	"is assembled, and its min_ctas lowered while ptxas\nspills 32 bytes or more a thread "
	"(the spill guard: docs/heuristics.md); --config leaves the\nknobs as given.\n",
    .run = compile_run,
};
