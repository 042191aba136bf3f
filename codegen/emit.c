/* Emission: verify the module, optimise it, and print PTX through LLVM's NVPTX back end. */
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "codegen/codegen.h"

#define TRIPLE "nvptx64-nvidia-cuda"
/* PTX 7.8 is what sm_90 needs and gives sm_80 the native bf16 conversions; ptxas 12+ takes it. */
#define PTX_FEATURES "+ptx78"
#define PTX_VERSION "7.8" /* the .version line PTX_FEATURES makes LLVM write */

/* Without a handler an LLVM error diagnostic exits the process; with one it becomes ours. */
typedef struct {
	char first[400];
	int errors;
} Sink;

static void
on_diag(LLVMDiagnosticInfoRef di, void *ctx)
{
	Sink *s = ctx;
	if (LLVMGetDiagInfoSeverity(di) != LLVMDSError)
		return;
	char *m = LLVMGetDiagInfoDescription(di);
	if (s->errors++ == 0)
		snprintf(s->first, sizeof s->first, "%s", m);
	LLVMDisposeMessage(m);
}

static void
init_nvptx(void)
{
	static int done;
	if (done)
		return;
	LLVMInitializeNVPTXTargetInfo();
	LLVMInitializeNVPTXTarget();
	LLVMInitializeNVPTXTargetMC();
	LLVMInitializeNVPTXAsmPrinter();
	done = 1;
}

const char *
codegen_ptx_isa(const char *arch)
{
	const Arch *a = codegen_arch_info(arch);
	return a && a->ptx_isa ? a->ptx_isa : PTX_VERSION;
}

/* The one place an arch LLVM 19 cannot name (sm_100, Arch.ptx_isa set) gets its own PTX: the code
 * was emitted for a->cpu (sm_90, no "a" features) at PTX_VERSION, every instruction of which the
 * arch runs at its own ISA version (docs/codegen.md, "Archs LLVM does not know"), so only the
 * header's .version and .target lines change. Each must appear once, as LLVM writes them, before
 * the code; any other header is an internal error, never PTX that names the wrong arch. */
static int
retarget(Buf *ptx, const char *text, const Arch *a, Diag *d)
{
	char want_v[32], want_t[32];
	snprintf(want_v, sizeof want_v, "\n.version %s\n", PTX_VERSION);
	snprintf(want_t, sizeof want_t, "\n.target %s\n", a->cpu);
	const char *v = strstr(text, want_v), *t = strstr(text, want_t);
	const char *code = strstr(text, "\n.visible");
	if (!v || !t || v > t || (code && t > code) || strstr(v + 1, want_v) ||
	    strstr(t + 1, want_t))
		return diag(d,
			    "internal error: cannot retarget the PTX for %s: no '.version %s' and "
			    "'.target %s' header as LLVM writes it",
			    a->name, PTX_VERSION, a->cpu);
	/* each line up to, not including, its newline */
	const char *v_end = v + strlen(want_v) - 1, *t_end = t + strlen(want_t) - 1;
	buf_printf(ptx, "%.*s\n.version %s", (int)(v - text), text, a->ptx_isa);
	buf_printf(ptx, "%.*s\n.target %s", (int)(t - v_end), v_end, a->name);
	buf_puts(ptx, t_end);
	return 0;
}

static int
take_error(Diag *d, const char *what, LLVMErrorRef e)
{
	char *m = LLVMGetErrorMessage(e);
	diag(d, "LLVM %s failed: %s", what, m);
	LLVMDisposeErrorMessage(m);
	return -1;
}

int
codegen_regions(const Kernel *k, const Compile *c, Regions *out, Diag *d)
{
	memset(out, 0, sizeof *out);
	out->group = config_segments(&c->cfg);
	out->every = regions_every(c);
	if (!c->regions)
		return 0;
	LLVMContextRef cx = LLVMContextCreate();
	LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(k->name, cx);
	int rc = lower_kernel(k, c, 0, cx, mod, d);
	if (!rc)
		regions_read(mod, out);
	LLVMDisposeModule(mod);
	LLVMContextDispose(cx);
	return rc;
}

int
codegen_ptx(const Kernel *k, const Compile *c, Buf *ptx, Buf *llvm, Diag *d)
{
	if (codegen_check(k, c, d))
		return -1;
	init_nvptx();
	char *err = NULL;
	LLVMTargetRef t;
	if (LLVMGetTargetFromTriple(TRIPLE, &t, &err)) {
		diag(d, "LLVM has no NVPTX target: %s", err);
		LLVMDisposeMessage(err);
		return -1;
	}
	Sink sink = {.errors = 0};
	int rc = -1;
	LLVMContextRef cx = LLVMContextCreate();
	LLVMContextSetDiagnosticHandler(cx, on_diag, &sink);
	LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(k->name, cx);
	const Arch *arch = codegen_arch_info(c->arch); /* codegen_check found it */
	LLVMTargetMachineRef tm =
	    LLVMCreateTargetMachine(t, TRIPLE, arch->cpu, PTX_FEATURES, LLVMCodeGenLevelAggressive,
				    LLVMRelocDefault, LLVMCodeModelDefault);
	LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
	char *dl = LLVMCopyStringRepOfTargetData(td);
	LLVMSetDataLayout(mod, dl);
	LLVMDisposeMessage(dl);
	LLVMDisposeTargetData(td);
	LLVMSetTarget(mod, TRIPLE);
	LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
	LLVMMemoryBufferRef mb = NULL;
	LLVMErrorRef e;
	if (lower_kernel(k, c, 0, cx, mod, d))
		goto out;
	if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &err)) {
		diag(d, "internal error: invalid LLVM IR for '%s': %s", k->name, err);
		LLVMDisposeMessage(err);
		goto out;
	}
	LLVMDisposeMessage(err);
	if ((e = LLVMRunPasses(mod, "default<O3>", tm, opts))) {
		take_error(d, "optimisation", e);
		goto out;
	}
	if (llvm) {
		char *s = LLVMPrintModuleToString(mod);
		buf_puts(llvm, s);
		LLVMDisposeMessage(s);
	}
	if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMAssemblyFile, &err, &mb)) {
		diag(d, "LLVM PTX emission failed: %s", err);
		LLVMDisposeMessage(err);
		goto out;
	}
	if (sink.errors) {
		diag(d, "LLVM error while compiling '%s': %s", k->name, sink.first);
		goto out;
	}
	size_t n = LLVMGetBufferSize(mb);
	const char *s = LLVMGetBufferStart(mb);
	if (!arch->ptx_isa) {
		buf_printf(ptx, "%.*s", (int)n, s);
		rc = 0;
	} else {
		Buf own = {0};
		buf_printf(&own, "%.*s", (int)n, s);
		rc = retarget(ptx, own.s, arch, d);
		buf_free(&own);
	}
out:
	if (mb)
		LLVMDisposeMemoryBuffer(mb);
	LLVMDisposePassBuilderOptions(opts);
	LLVMDisposeModule(mod);
	LLVMDisposeTargetMachine(tm);
	LLVMContextDispose(cx);
	return rc;
}
