/* --regions: the list of a kernel's regions, read back from its lowering's metadata. */
#include <stdio.h>
#include <string.h>

#include "codegen/lower.h"

int
codegen_regions(const Kernel *k, const Compile *c, Regions *out, Diag *d)
{
	memset(out, 0, sizeof *out);
	if (!c->regions)
		return 0;
	LLVMContextRef cx = LLVMContextCreate();
	LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(k->name, cx);
	int rc = lower_kernel(k, c, 0, cx, mod, d);
	out->group = config_segments(&c->cfg);
	unsigned n = rc ? 0 : LLVMGetNamedMetadataNumOperands(mod, "rkc.regions");
	LLVMValueRef ops[MAX_REGIONS];
	if (n > MAX_REGIONS)
		n = 0;
	LLVMGetNamedMetadataOperands(mod, "rkc.regions", ops);
	for (unsigned i = 0; i < n; i++) {
		LLVMValueRef f[2];
		LLVMGetMDNodeOperands(ops[i], f);
		unsigned len = 0;
		const char *s = LLVMGetMDString(f[0], &len);
		Region *r = &out->r[out->n++];
		snprintf(r->name, sizeof r->name, "%.*s", (int)len, s);
		r->wait = (int)LLVMConstIntGetZExtValue(f[1]);
	}
	LLVMDisposeModule(mod);
	LLVMContextDispose(cx);
	return rc;
}
