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
	LLVMTargetMachineRef tm =
	    LLVMCreateTargetMachine(t, TRIPLE, c->arch, PTX_FEATURES, LLVMCodeGenLevelAggressive,
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
	buf_printf(ptx, "%.*s", (int)n, s);
	rc = 0;
out:
	if (mb)
		LLVMDisposeMemoryBuffer(mb);
	LLVMDisposePassBuilderOptions(opts);
	LLVMDisposeModule(mod);
	LLVMDisposeTargetMachine(tm);
	LLVMContextDispose(cx);
	return rc;
}
